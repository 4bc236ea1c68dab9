CREATE TABLE "business" (
	"businessID" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "business_businessID_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"businessName" varchar(255) NOT NULL,
	"businessAddress" varchar(250) DEFAULT '' NOT NULL,
	"businessCity" varchar(250) DEFAULT '' NOT NULL,
	"businessState" varchar(250) DEFAULT '' NOT NULL,
	"businessZip" varchar(50) DEFAULT '' NOT NULL,
	"businessPhone" varchar(50) DEFAULT '' NOT NULL,
	"businessFax" varchar(50) DEFAULT '' NOT NULL,
	"businessEmail" varchar(150) NOT NULL,
	"businessPassword" text DEFAULT '' NOT NULL,
	"businessContact" varchar(250) DEFAULT '' NOT NULL,
	"businessWebsite" varchar(255) DEFAULT '' NOT NULL,
	"facebookURL" varchar(255) DEFAULT '' NOT NULL,
	"instagramURL" varchar(255) DEFAULT '' NOT NULL,
	"linkedin" varchar(255) DEFAULT '' NOT NULL,
	"youtubeURL" varchar(255) DEFAULT '' NOT NULL,
	"xURL" varchar(255) DEFAULT '' NOT NULL,
	"tiktokURL" varchar(255) DEFAULT '' NOT NULL,
	"businessNameEmail" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categoryList" (
	"categoryID" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "categoryList_categoryID_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"categoryName" varchar(100) NOT NULL,
	CONSTRAINT "categoryList_categoryName_unique" UNIQUE("categoryName")
);
--> statement-breakpoint
CREATE TABLE "clickCount" (
	"clickCountid" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "clickCount_clickCountid_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"businessID" integer NOT NULL,
	"eventID" integer NOT NULL,
	"userIPaddress" varchar(128) DEFAULT '' NOT NULL,
	"clickDate" date DEFAULT CURRENT_DATE NOT NULL,
	"bounceClick" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_media" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "event_media_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"eventId" integer NOT NULL,
	"mediaType" varchar(10) NOT NULL,
	"mediaUrl" varchar(255) NOT NULL,
	"uploadedAt" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_media_type_check" CHECK ("event_media"."mediaType" in ('photo', 'video'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"eventID" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_eventID_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"createdDate" timestamp with time zone DEFAULT now() NOT NULL,
	"businessName" varchar(255) DEFAULT '' NOT NULL,
	"businessID" integer NOT NULL,
	"eventTitle" varchar(250) NOT NULL,
	"category" text[] DEFAULT '{}'::text[] NOT NULL,
	"showAdOnDates" date[] DEFAULT '{}'::date[] NOT NULL,
	"eventDate" date DEFAULT '1989-01-01'::date NOT NULL,
	"firstShowDate" date,
	"lastShowDate" date,
	"daysOrdered" numeric DEFAULT 0 NOT NULL,
	"eventDescription" varchar(500) NOT NULL,
	"stillPhotoURL" text DEFAULT '' NOT NULL,
	"videoURL" text DEFAULT '' NOT NULL,
	"totalCost" numeric(10, 2) DEFAULT 0 NOT NULL,
	"contactPerson" varchar(250) DEFAULT '' NOT NULL,
	"contactEmail" varchar(150) DEFAULT '' NOT NULL,
	"contactPhone" varchar(50) DEFAULT '' NOT NULL,
	"approvedDateByBusiness" date DEFAULT '1989-01-01'::date NOT NULL,
	"approvedDateByAdmin" date DEFAULT '1989-01-01'::date NOT NULL,
	"paymentStatus" varchar(20) DEFAULT 'pending' NOT NULL,
	"eventStatus" varchar(20) DEFAULT 'pending' NOT NULL,
	"payment_intent_id" text,
	"reviewedByUserId" uuid,
	"reviewedAt" timestamp with time zone,
	"rejectionReason" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"paymentID" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_paymentID_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"eventID" integer NOT NULL,
	"totalCost" numeric(10, 2) DEFAULT 0 NOT NULL,
	"totalPaid" numeric(10, 2) DEFAULT 0 NOT NULL,
	"datePaid" timestamp with time zone,
	"payment_intent_id" text,
	"checkout_session_id" text,
	"stripe_charge_id" text,
	"stripe_customer_id" text,
	"idempotency_key" text,
	"currency" varchar(3) DEFAULT 'usd' NOT NULL,
	"amount_due_cents" integer DEFAULT 0 NOT NULL,
	"amount_paid_cents" integer DEFAULT 0 NOT NULL,
	"amount_refunded_cents" integer DEFAULT 0 NOT NULL,
	"payment_status" varchar(30) DEFAULT 'pending' NOT NULL,
	"paid_at" timestamp with time zone,
	"payment_expires_at" timestamp with time zone,
	"payment_method_id" text,
	"card_brand" varchar(30),
	"card_last4" varchar(4),
	"card_exp_month" integer,
	"card_exp_year" integer,
	"receipt_url" text,
	"receipt_email" text,
	"webhook_last_event_id" text,
	"webhook_last_received_at" timestamp with time zone,
	"error_code" text,
	"error_message" text,
	"latest_provider_event" jsonb,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_payment_intent_id_unique" UNIQUE("payment_intent_id"),
	CONSTRAINT "payments_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "ptdisease" (
	"ptdiseaseID" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ptdisease_ptdiseaseID_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"patientnumber" integer,
	"mrn" varchar(50) NOT NULL,
	"sexpatient" varchar(10),
	"dob" date,
	"disease" varchar(255) NOT NULL,
	"diseasecode" varchar(50) DEFAULT '' NOT NULL,
	"diseasecodesigdig" varchar(50) DEFAULT '' NOT NULL,
	"organsystem" varchar(100) DEFAULT '' NOT NULL,
	"longshortproblem" varchar(50) DEFAULT '' NOT NULL,
	"ptnumberdiseasecode" varchar(100) DEFAULT '' NOT NULL,
	"ptnumberdiseasecodesigdig" varchar(100) DEFAULT '' NOT NULL,
	"dateentered" date,
	"lastreviewed" date,
	"reviewInterval" integer,
	"comment" text DEFAULT '' NOT NULL,
	"choose" boolean DEFAULT false NOT NULL,
	"dateDue" date,
	"finished" boolean DEFAULT false NOT NULL,
	"dxusedforcharge" boolean DEFAULT false NOT NULL,
	"resolved" boolean DEFAULT false NOT NULL,
	"ptanswered" boolean DEFAULT false NOT NULL,
	"CDMok" boolean DEFAULT false NOT NULL,
	"controlledCDM" boolean DEFAULT false NOT NULL,
	"questionsToAsk" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sid" varchar(255) PRIMARY KEY NOT NULL,
	"sess" json NOT NULL,
	"expire" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" varchar(255) NOT NULL,
	"firstName" varchar(255) DEFAULT '' NOT NULL,
	"lastName" varchar(255) DEFAULT '' NOT NULL,
	"profileImageUrl" text DEFAULT '' NOT NULL,
	"fullName" varchar(150) DEFAULT '' NOT NULL,
	"username" varchar(100),
	"phone" varchar(20) DEFAULT '' NOT NULL,
	"stripeCustomerId" text,
	"stripeSubscriptionId" text,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"businessID" integer,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedAt" timestamp with time zone DEFAULT now() NOT NULL,
	"lastLogin" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "clickCount" ADD CONSTRAINT "clickCount_businessID_business_businessID_fk" FOREIGN KEY ("businessID") REFERENCES "public"."business"("businessID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clickCount" ADD CONSTRAINT "clickCount_eventID_events_eventID_fk" FOREIGN KEY ("eventID") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_media" ADD CONSTRAINT "event_media_eventId_events_eventID_fk" FOREIGN KEY ("eventId") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_businessID_business_businessID_fk" FOREIGN KEY ("businessID") REFERENCES "public"."business"("businessID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_reviewedByUserId_users_id_fk" FOREIGN KEY ("reviewedByUserId") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_eventID_events_eventID_fk" FOREIGN KEY ("eventID") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_businessID_business_businessID_fk" FOREIGN KEY ("businessID") REFERENCES "public"."business"("businessID") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "business_email_unique" ON "business" USING btree ("businessEmail");--> statement-breakpoint
CREATE INDEX "click_event_date_idx" ON "clickCount" USING btree ("eventID","clickDate");--> statement-breakpoint
CREATE INDEX "click_business_date_idx" ON "clickCount" USING btree ("businessID","clickDate");--> statement-breakpoint
CREATE INDEX "event_media_event_idx" ON "event_media" USING btree ("eventId");--> statement-breakpoint
CREATE INDEX "events_business_idx" ON "events" USING btree ("businessID","createdDate");--> statement-breakpoint
CREATE INDEX "events_live_idx" ON "events" USING btree ("eventStatus","paymentStatus","lastShowDate");--> statement-breakpoint
CREATE INDEX "events_pending_upload_idx" ON "events" USING btree ("createdDate") WHERE "eventStatus" = 'pending';--> statement-breakpoint
CREATE INDEX "events_show_dates_idx" ON "events" USING gin ("showAdOnDates");--> statement-breakpoint
CREATE INDEX "events_category_idx" ON "events" USING gin ("category");--> statement-breakpoint
CREATE INDEX "events_description_trgm_idx" ON "events" USING gin ("eventDescription" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_event_idx" ON "payments" USING btree ("eventID");--> statement-breakpoint
CREATE INDEX "ptdisease_mrn_trgm_idx" ON "ptdisease" USING gin ("mrn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ptdisease_disease_trgm_idx" ON "ptdisease" USING gin ("disease" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ptdisease_code_trgm_idx" ON "ptdisease" USING gin ("diseasecode" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ptdisease_organ_trgm_idx" ON "ptdisease" USING gin ("organsystem" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ptdisease_patientnumber_idx" ON "ptdisease" USING btree ("patientnumber");--> statement-breakpoint
CREATE INDEX "IDX_session_expire" ON "sessions" USING btree ("expire");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_unique" ON "users" USING btree ("username");