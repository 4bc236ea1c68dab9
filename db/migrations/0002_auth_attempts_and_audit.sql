CREATE TABLE "auth_attempts" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"windowStartedAt" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ptdisease_audit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ptdisease_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"occurredAt" timestamp with time zone DEFAULT now() NOT NULL,
	"userId" uuid,
	"userEmail" varchar(255) DEFAULT '' NOT NULL,
	"action" varchar(20) NOT NULL,
	"ptdiseaseID" integer,
	"changes" jsonb
);
--> statement-breakpoint
CREATE INDEX "ptdisease_audit_record_idx" ON "ptdisease_audit" USING btree ("ptdiseaseID","occurredAt");