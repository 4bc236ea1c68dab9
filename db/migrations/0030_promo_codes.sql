CREATE TABLE "promo_code_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promo_code_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"promoCodeId" integer NOT NULL,
	"change" varchar(20) NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"changedAt" timestamp with time zone DEFAULT now() NOT NULL,
	"changedByUserId" uuid,
	"changedByEmail" varchar(255) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promo_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" varchar(32) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"value" integer NOT NULL,
	"expiresAt" timestamp with time zone,
	"maxUses" integer,
	"firstAdOnly" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"createdByUserId" uuid,
	CONSTRAINT "promo_codes_code_unique" UNIQUE("code"),
	CONSTRAINT "promo_codes_kind_check" CHECK ("promo_codes"."kind" in ('percent', 'fixed')),
	CONSTRAINT "promo_codes_value_check" CHECK ("promo_codes"."value" > 0 and ("promo_codes"."kind" <> 'percent' or "promo_codes"."value" <= 100)),
	CONSTRAINT "promo_codes_max_uses_check" CHECK ("promo_codes"."maxUses" is null or "promo_codes"."maxUses" > 0)
);
--> statement-breakpoint
CREATE TABLE "promo_redemptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promo_redemptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"promoCodeId" integer NOT NULL,
	"businessID" integer NOT NULL,
	"eventID" integer NOT NULL,
	"paymentID" integer,
	"discountCents" integer NOT NULL,
	"status" varchar(10) DEFAULT 'reserved' NOT NULL,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"redeemedAt" timestamp with time zone,
	CONSTRAINT "promo_redemptions_eventID_unique" UNIQUE("eventID"),
	CONSTRAINT "promo_redemptions_discount_check" CHECK ("promo_redemptions"."discountCents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "promoCodeId" integer;--> statement-breakpoint
ALTER TABLE "promo_code_changes" ADD CONSTRAINT "promo_code_changes_promoCodeId_promo_codes_id_fk" FOREIGN KEY ("promoCodeId") REFERENCES "public"."promo_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_changes" ADD CONSTRAINT "promo_code_changes_changedByUserId_users_id_fk" FOREIGN KEY ("changedByUserId") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_createdByUserId_users_id_fk" FOREIGN KEY ("createdByUserId") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_promoCodeId_promo_codes_id_fk" FOREIGN KEY ("promoCodeId") REFERENCES "public"."promo_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_businessID_business_businessID_fk" FOREIGN KEY ("businessID") REFERENCES "public"."business"("businessID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_eventID_events_eventID_fk" FOREIGN KEY ("eventID") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_paymentID_payments_paymentID_fk" FOREIGN KEY ("paymentID") REFERENCES "public"."payments"("paymentID") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promo_code_changes_code_idx" ON "promo_code_changes" USING btree ("promoCodeId","changedAt");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_redemptions_code_business_idx" ON "promo_redemptions" USING btree ("promoCodeId","businessID");--> statement-breakpoint
-- The column is new and empty: NOT VALID skips reading every ad under the lock; new rows are checked all the same.
ALTER TABLE "events" ADD CONSTRAINT "events_promoCodeId_promo_codes_id_fk" FOREIGN KEY ("promoCodeId") REFERENCES "public"."promo_codes"("id") ON DELETE set null ON UPDATE no action NOT VALID;