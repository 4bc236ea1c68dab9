CREATE TABLE "subscription_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscription_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"job" varchar(20) NOT NULL,
	"startedAt" timestamp with time zone NOT NULL,
	"durationMs" integer NOT NULL,
	"checked" integer NOT NULL,
	"queued" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"email" varchar(254) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"frequency" varchar(10) NOT NULL,
	"filters" jsonb NOT NULL,
	"filterKey" text NOT NULL,
	"eventId" integer,
	"confirmedAt" timestamp with time zone,
	"coveredUntil" timestamp with time zone,
	CONSTRAINT "subscriptions_kind_check" CHECK ("subscriptions"."kind" in ('search', 'reminder')),
	CONSTRAINT "subscriptions_frequency_check" CHECK ("subscriptions"."frequency" in ('weekly', 'daily', 'once'))
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_eventId_events_eventID_fk" FOREIGN KEY ("eventId") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_runs_job_idx" ON "subscription_runs" USING btree ("job","startedAt");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_email_filter_unique" ON "subscriptions" USING btree ("email","filterKey");--> statement-breakpoint
CREATE INDEX "subscriptions_confirmed_idx" ON "subscriptions" USING btree ("kind","frequency","id") WHERE "confirmedAt" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "subscriptions_unconfirmed_idx" ON "subscriptions" USING btree ("createdAt") WHERE "confirmedAt" IS NULL;--> statement-breakpoint
CREATE INDEX "subscriptions_event_idx" ON "subscriptions" USING btree ("eventId");--> statement-breakpoint
CREATE INDEX "events_live_reviewed_idx" ON "events" USING btree ("reviewedAt") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid';