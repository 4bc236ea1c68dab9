CREATE TABLE "outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" varchar(40) NOT NULL,
	"dedupeKey" text,
	"toAddress" text NOT NULL,
	"subject" text NOT NULL,
	"textBody" text NOT NULL,
	"htmlBody" text NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"nextAttemptAt" timestamp with time zone DEFAULT now() NOT NULL,
	"lastError" text,
	"sentAt" timestamp with time zone,
	CONSTRAINT "outbox_status_check" CHECK ("outbox"."status" in ('pending', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_dedupe_key_unique" ON "outbox" USING btree ("dedupeKey");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("nextAttemptAt") WHERE "status" in ('pending', 'sending');