ALTER TABLE "event_revisions" ADD COLUMN "ticket_url" varchar(500) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "price_cents" integer;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "attendance_mode" varchar(20) DEFAULT 'in_person' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "venue_address" varchar(250) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "venue_city" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "venue_state" varchar(50) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "venue_zip" varchar(10) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "online_url" varchar(500) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "accessibility_features" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "accessibility_note" varchar(500) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "accessibility_contact" varchar(250) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "age_range" varchar(10) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "ticketUrl" varchar(500) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "priceCents" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "attendanceMode" varchar(20) DEFAULT 'in_person' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venueAddress" varchar(250) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venueCity" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venueState" varchar(50) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venueZip" varchar(10) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "onlineUrl" varchar(500) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "accessibilityFeatures" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "accessibilityNote" varchar(500) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "accessibilityContact" varchar(250) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "ageRange" varchar(10) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venueLatitude" double precision;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venueLongitude" double precision;--> statement-breakpoint
CREATE INDEX "events_live_accessibility_idx" ON "events" USING gin ("accessibilityFeatures","lastShowDate") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid';--> statement-breakpoint
CREATE INDEX "events_live_free_idx" ON "events" USING btree ("lastShowDate") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "priceCents" = 0;--> statement-breakpoint
CREATE INDEX "events_live_online_idx" ON "events" USING btree ("lastShowDate") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "attendanceMode" <> 'in_person';--> statement-breakpoint
CREATE INDEX "events_venue_location_idx" ON "events" USING btree ("venueLatitude","venueLongitude") WHERE "venueLatitude" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_price_cents_check" CHECK ("priceCents" IS NULL OR "priceCents" BETWEEN 0 AND 10000000);--> statement-breakpoint
-- An ad at another address is placed at the centre of that address's ZIP, like a business (0010), so "near me"
-- finds it there; an ad at the business's address (no ZIP of its own) or an unknown ZIP leaves no coordinates.
CREATE OR REPLACE FUNCTION events_set_venue_location() RETURNS trigger AS $$
BEGIN
  NEW."venueLatitude" := NULL;
  NEW."venueLongitude" := NULL;
  IF NEW."venueZip" <> '' THEN
    SELECT z."latitude", z."longitude" INTO NEW."venueLatitude", NEW."venueLongitude"
    FROM "zip_centroids" AS z
    WHERE z."zip" = substring(NEW."venueZip" FROM '^\s*(\d{5})(?:[-\s]?\d{4})?\s*$');
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_venue_location BEFORE INSERT OR UPDATE OF "venueZip" ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_set_venue_location();
