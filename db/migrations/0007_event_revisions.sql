CREATE TABLE "event_revisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "event_revisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"event_title" varchar(250) NOT NULL,
	"event_description" varchar(500) NOT NULL,
	"category" text[] DEFAULT '{}'::text[] NOT NULL,
	"contact_person" varchar(250) DEFAULT '' NOT NULL,
	"contact_email" varchar(150) DEFAULT '' NOT NULL,
	"contact_phone" varchar(50) DEFAULT '' NOT NULL,
	"still_photo_url" text DEFAULT '' NOT NULL,
	"video_url" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"reviewed_by_user_id" uuid,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "event_revisions" ADD CONSTRAINT "event_revisions_event_id_events_eventID_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD CONSTRAINT "event_revisions_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_revisions_open_idx" ON "event_revisions" USING btree ("event_id") WHERE "status" in ('pending', 'changes_requested');--> statement-breakpoint
CREATE INDEX "event_revisions_event_idx" ON "event_revisions" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "event_revisions_pending_idx" ON "event_revisions" USING btree ("submitted_at") WHERE "status" = 'pending';