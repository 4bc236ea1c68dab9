CREATE TABLE "moderation_audit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "moderation_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"occurredAt" timestamp with time zone DEFAULT now() NOT NULL,
	"actorUserId" uuid,
	"actorEmail" varchar(255) DEFAULT '' NOT NULL,
	"action" varchar(30) NOT NULL,
	"eventID" integer,
	"businessID" integer,
	"revision" boolean DEFAULT false NOT NULL,
	"reason" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "moderation_audit_event_idx" ON "moderation_audit" USING btree ("eventID","occurredAt");--> statement-breakpoint
CREATE INDEX "moderation_audit_occurred_idx" ON "moderation_audit" USING btree ("occurredAt");--> statement-breakpoint
CREATE OR REPLACE FUNCTION moderation_audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'moderation_audit is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER moderation_audit_no_update_delete
  BEFORE UPDATE OR DELETE ON "moderation_audit"
  FOR EACH ROW EXECUTE FUNCTION moderation_audit_append_only();
--> statement-breakpoint
CREATE TABLE "ad_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ad_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"eventID" integer NOT NULL,
	"reporterKey" varchar(64) NOT NULL,
	"reason" varchar(20) NOT NULL,
	"details" varchar(1000) DEFAULT '' NOT NULL,
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"resolvedAt" timestamp with time zone,
	"resolvedByUserId" uuid,
	CONSTRAINT "ad_reports_status_check" CHECK ("ad_reports"."status" in ('open', 'dismissed', 'upheld')),
	CONSTRAINT "ad_reports_reason_check" CHECK ("ad_reports"."reason" in ('misleading', 'offensive', 'spam', 'wrong_date_or_place', 'other'))
);
--> statement-breakpoint
ALTER TABLE "ad_reports" ADD CONSTRAINT "ad_reports_eventID_events_eventID_fk" FOREIGN KEY ("eventID") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_reports" ADD CONSTRAINT "ad_reports_resolvedByUserId_users_id_fk" FOREIGN KEY ("resolvedByUserId") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ad_reports_open_per_visitor_unique" ON "ad_reports" USING btree ("eventID","reporterKey") WHERE "status" = 'open';--> statement-breakpoint
CREATE INDEX "ad_reports_open_idx" ON "ad_reports" USING btree ("eventID","createdAt") WHERE "status" = 'open';