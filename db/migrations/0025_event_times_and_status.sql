ALTER TABLE "event_revisions" ADD COLUMN "start_time" time;--> statement-breakpoint
ALTER TABLE "event_revisions" ADD COLUMN "end_time" time;--> statement-breakpoint
ALTER TABLE "event_show_dates" ADD COLUMN "start_time" time;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "startTime" time;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "endTime" time;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "scheduleStatus" varchar(20);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "scheduleNote" varchar(140) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "scheduleChangedAt" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "calendarSequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_schedule_status_check"
  CHECK ("scheduleStatus" IN ('cancelled', 'postponed', 'sold_out')) NOT VALID;
--> statement-breakpoint
-- The show-date rows carry the event's start time (the listing and the month grid order a day's events by it), and
-- are rewritten when it changes. Otherwise as in 0015.
CREATE OR REPLACE FUNCTION events_show_dates_sync() RETURNS trigger AS $$
DECLARE
  was_live boolean := TG_OP <> 'INSERT' AND OLD."eventStatus" = 'approved' AND OLD."paymentStatus" = 'paid';
  is_live boolean := TG_OP <> 'DELETE' AND NEW."eventStatus" = 'approved' AND NEW."paymentStatus" = 'paid';
  rows_changed boolean := TG_OP <> 'UPDATE' OR NEW."showAdOnDates" IS DISTINCT FROM OLD."showAdOnDates"
    OR NEW."eventDate" IS DISTINCT FROM OLD."eventDate" OR NEW."category" IS DISTINCT FROM OLD."category"
    OR NEW."startTime" IS DISTINCT FROM OLD."startTime" OR was_live IS DISTINCT FROM is_live;
BEGIN
  IF NOT (was_live OR is_live) OR NOT rows_changed THEN
    -- Not live before or after (no rows, nothing counted), or nothing the rows or counts hold has changed.
    RETURN NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF TG_OP = 'UPDATE' THEN
      DELETE FROM "event_show_dates" WHERE "event_id" = OLD."eventID";
    END IF;
    IF is_live THEN
      INSERT INTO "event_show_dates" ("event_id", "show_date", "previous_date", "category", "grid_day", "last_date",
        "start_time")
      SELECT NEW."eventID", r.show_date, r.previous_date, NEW."category",
        NEW."eventDate" = DATE '1989-01-01' OR r.show_date = NEW."eventDate", max(r.show_date) OVER (),
        NEW."startTime"
      FROM event_show_date_rows(NEW."showAdOnDates", NEW."eventDate") AS r;
    END IF;
  END IF;
  WITH changes AS (
    SELECT k.*, -1 AS delta FROM show_date_count_keys(OLD."category", OLD."showAdOnDates", OLD."eventDate") AS k
    WHERE was_live
    UNION ALL
    SELECT k.*, 1 FROM show_date_count_keys(NEW."category", NEW."showAdOnDates", NEW."eventDate") AS k
    WHERE is_live
  ), net AS (
    SELECT c.category, c.show_date, c.previous_date, c.grid_day, sum(c.delta)::integer AS delta
    FROM changes AS c GROUP BY 1, 2, 3, 4 HAVING sum(c.delta) <> 0
  )
  INSERT INTO "show_date_counts" AS t ("category", "show_date", "previous_date", "grid_day", "events")
  SELECT * FROM net ORDER BY 1, 2, 3, 4
  ON CONFLICT ("category", "show_date", "previous_date", "grid_day") DO UPDATE SET "events" = t."events" + excluded."events";
  -- Only keys the event was counted under can have dropped to none.
  IF was_live THEN
    DELETE FROM "show_date_counts" AS t
    WHERE t."events" = 0 AND (t."category", t."show_date", t."previous_date", t."grid_day") IN (
      SELECT * FROM show_date_count_keys(OLD."category", OLD."showAdOnDates", OLD."eventDate"));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "events_show_dates_sync" ON "events";
--> statement-breakpoint
CREATE TRIGGER events_show_dates_sync
  AFTER INSERT OR DELETE OR UPDATE OF "showAdOnDates", "eventDate", "eventStatus", "paymentStatus", "category",
    "startTime" ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_show_dates_sync();
--> statement-breakpoint
-- A calendar app that subscribed to an ad replaces its entry only when SEQUENCE rises (RFC 5545): every change of
-- what the entry shows raises it, whichever code made the change.
CREATE FUNCTION events_raise_calendar_sequence() RETURNS trigger AS $$
BEGIN
  NEW."calendarSequence" := OLD."calendarSequence" + 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_calendar_sequence BEFORE UPDATE ON "events"
  FOR EACH ROW
  WHEN (OLD."eventTitle" IS DISTINCT FROM NEW."eventTitle"
    OR OLD."eventDescription" IS DISTINCT FROM NEW."eventDescription"
    OR OLD."eventDate" IS DISTINCT FROM NEW."eventDate"
    OR OLD."showAdOnDates" IS DISTINCT FROM NEW."showAdOnDates"
    OR OLD."startTime" IS DISTINCT FROM NEW."startTime"
    OR OLD."endTime" IS DISTINCT FROM NEW."endTime"
    OR OLD."scheduleStatus" IS DISTINCT FROM NEW."scheduleStatus"
    OR OLD."scheduleNote" IS DISTINCT FROM NEW."scheduleNote"
    OR OLD."venueAddress" IS DISTINCT FROM NEW."venueAddress"
    OR OLD."venueCity" IS DISTINCT FROM NEW."venueCity"
    OR OLD."venueState" IS DISTINCT FROM NEW."venueState"
    OR OLD."venueZip" IS DISTINCT FROM NEW."venueZip")
  EXECUTE FUNCTION events_raise_calendar_sequence();
