CREATE TABLE "price_lists" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_lists_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tiers" jsonb NOT NULL,
	"sponsoredCentsPerDay" integer DEFAULT 500 NOT NULL,
	"sponsoredSlots" integer DEFAULT 2 NOT NULL,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"changedByUserId" uuid,
	"changedByEmail" varchar(255) DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	CONSTRAINT "price_lists_sponsored_cents_check" CHECK ("price_lists"."sponsoredCentsPerDay" >= 0),
	CONSTRAINT "price_lists_sponsored_slots_check" CHECK ("price_lists"."sponsoredSlots" >= 0)
);
--> statement-breakpoint
ALTER TABLE "price_lists" ADD CONSTRAINT "price_lists_changedByUserId_users_id_fk" FOREIGN KEY ("changedByUserId") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
-- The prices the code had until now, as the first version.
INSERT INTO "price_lists" ("tiers", "note") VALUES ('[{"upToDays":7,"cents":2900},{"upToDays":14,"cents":4900},{"upToDays":21,"cents":6900}]'::jsonb, 'The prices before they could be set here');
