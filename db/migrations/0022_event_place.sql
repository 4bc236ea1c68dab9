DROP INDEX "events_venue_location_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "placeLatitude" double precision;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "placeLongitude" double precision;--> statement-breakpoint
-- Where "near me" places an ad: its venue's ZIP centre (0016) when it has one, else its business's (0010). Kept
-- here, on the ad's own row, so the distance filter is one range on one index instead of an OR across two tables.
CREATE OR REPLACE FUNCTION events_set_venue_location() RETURNS trigger AS $$
BEGIN
  NEW."venueLatitude" := NULL;
  NEW."venueLongitude" := NULL;
  IF NEW."venueZip" <> '' THEN
    SELECT z."latitude", z."longitude" INTO NEW."venueLatitude", NEW."venueLongitude"
    FROM "zip_centroids" AS z
    WHERE z."zip" = substring(NEW."venueZip" FROM '^\s*(\d{5})(?:[-\s]?\d{4})?\s*$');
  END IF;
  IF NEW."venueLatitude" IS NOT NULL THEN
    NEW."placeLatitude" := NEW."venueLatitude";
    NEW."placeLongitude" := NEW."venueLongitude";
  ELSIF TG_OP = 'INSERT' OR OLD."venueLatitude" IS NOT NULL OR NEW."businessID" <> OLD."businessID" THEN
    -- FOR SHARE: a business moving at this moment (business_event_places) cannot see this row's new place yet, so
    -- one waits for the other and the ad ends where its business ends. An ad that was at its business already has
    -- the business's place, and a move updates it.
    SELECT b."latitude", b."longitude" INTO NEW."placeLatitude", NEW."placeLongitude"
    FROM "business" AS b
    WHERE b."businessID" = NEW."businessID"
    FOR SHARE;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "events_venue_location" ON "events";
--> statement-breakpoint
CREATE TRIGGER events_venue_location BEFORE INSERT OR UPDATE OF "venueZip", "businessID" ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_set_venue_location();
--> statement-breakpoint
-- A business that moves (a new ZIP, 0010) moves its ads that have no venue of their own. Not `UPDATE OF`: the
-- coordinates change in the business's BEFORE trigger, which an `UPDATE OF` trigger does not see.
CREATE OR REPLACE FUNCTION business_move_event_places() RETURNS trigger AS $$
BEGIN
  UPDATE "events" SET "placeLatitude" = NEW."latitude", "placeLongitude" = NEW."longitude"
  WHERE "businessID" = NEW."businessID" AND "venueLatitude" IS NULL;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER business_event_places AFTER UPDATE ON "business"
  FOR EACH ROW
  WHEN (OLD."latitude" IS DISTINCT FROM NEW."latitude" OR OLD."longitude" IS DISTINCT FROM NEW."longitude")
  EXECUTE FUNCTION business_move_event_places();
--> statement-breakpoint
UPDATE "events" AS e
SET "placeLatitude" = coalesce(e."venueLatitude", b."latitude"),
    "placeLongitude" = CASE WHEN e."venueLatitude" IS NOT NULL THEN e."venueLongitude" ELSE b."longitude" END
FROM "business" AS b
WHERE b."businessID" = e."businessID";
--> statement-breakpoint
CREATE INDEX "events_live_place_idx" ON "events" USING btree ("placeLatitude","placeLongitude","lastShowDate") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "placeLatitude" IS NOT NULL;
