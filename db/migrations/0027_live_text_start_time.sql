ALTER TABLE "live_event_texts" ADD COLUMN "start_time" time;--> statement-breakpoint
-- The row carries the ad's start time too: the same rule as in 0021, which also follows "startTime".
CREATE OR REPLACE FUNCTION events_live_texts_sync() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND NEW."eventDescription" IS NOT DISTINCT FROM OLD."eventDescription"
    AND NEW."category" IS NOT DISTINCT FROM OLD."category"
    AND NEW."showAdOnDates" IS NOT DISTINCT FROM OLD."showAdOnDates"
    AND NEW."eventDate" IS NOT DISTINCT FROM OLD."eventDate"
    AND NEW."lastShowDate" IS NOT DISTINCT FROM OLD."lastShowDate"
    AND NEW."eventStatus" IS NOT DISTINCT FROM OLD."eventStatus"
    AND NEW."paymentStatus" IS NOT DISTINCT FROM OLD."paymentStatus"
    AND NEW."startTime" IS NOT DISTINCT FROM OLD."startTime" THEN
    RETURN NULL;
  END IF;
  IF NEW."eventStatus" = 'approved' AND NEW."paymentStatus" = 'paid' AND NEW."lastShowDate" >= current_date - 2 THEN
    INSERT INTO "live_event_texts" ("event_id", "description", "category", "last_date", "grid_dates", "start_time")
    VALUES (NEW."eventID", lower(NEW."eventDescription"), NEW."category", NEW."lastShowDate",
      event_grid_dates(NEW."showAdOnDates", NEW."eventDate"), NEW."startTime")
    ON CONFLICT ("event_id") DO UPDATE SET "description" = excluded."description", "category" = excluded."category",
      "last_date" = excluded."last_date", "grid_dates" = excluded."grid_dates", "start_time" = excluded."start_time";
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM "live_event_texts" WHERE "event_id" = OLD."eventID";
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "events_live_texts_sync" ON "events";
--> statement-breakpoint
CREATE TRIGGER events_live_texts_sync
  AFTER INSERT OR UPDATE OF "eventDescription", "category", "showAdOnDates", "eventDate", "lastShowDate",
    "eventStatus", "paymentStatus", "startTime" ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_live_texts_sync();
--> statement-breakpoint
-- Live ads only (the table holds no other), so this is one short pass.
UPDATE "live_event_texts" AS t SET "start_time" = e."startTime"
FROM "events" AS e
WHERE e."eventID" = t."event_id" AND e."startTime" IS NOT NULL;
