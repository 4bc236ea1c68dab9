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
