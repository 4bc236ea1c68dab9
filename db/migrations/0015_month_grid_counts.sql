-- The month grid's facts on each show-date row: whether the grid lists the event on that day (it has no date of its
-- own, or this is it) and the event's last date (it is live while that is today or later). The counts are kept per
-- grid day too, so a month's days are summed from them like the listing's windows.
ALTER TABLE "event_show_dates" ADD COLUMN "grid_day" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "event_show_dates" ADD COLUMN "last_date" date;
--> statement-breakpoint
UPDATE "event_show_dates" AS s
SET "grid_day" = e."eventDate" = DATE '1989-01-01' OR s."show_date" = e."eventDate",
  "last_date" = (SELECT max(o."show_date") FROM "event_show_dates" AS o WHERE o."event_id" = s."event_id")
FROM "events" AS e
WHERE e."eventID" = s."event_id";
--> statement-breakpoint
ALTER TABLE "event_show_dates" ALTER COLUMN "last_date" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX "event_show_dates_grid_idx" ON "event_show_dates" USING btree ("show_date","event_id","last_date","category") WHERE grid_day;
--> statement-breakpoint
TRUNCATE "show_date_counts";
--> statement-breakpoint
ALTER TABLE "show_date_counts" DROP CONSTRAINT "show_date_counts_category_show_date_previous_date_pk";
--> statement-breakpoint
ALTER TABLE "show_date_counts" ADD COLUMN "grid_day" boolean NOT NULL;
--> statement-breakpoint
ALTER TABLE "show_date_counts" ADD CONSTRAINT "show_date_counts_category_show_date_previous_date_grid_day_pk" PRIMARY KEY("category","show_date","previous_date","grid_day");
--> statement-breakpoint
DROP FUNCTION show_date_count_keys(text[], date[], date);
--> statement-breakpoint
-- The keys of "show_date_counts" an event adds to: its rows once per category and once under '' (every event).
CREATE FUNCTION show_date_count_keys(categories text[], dates date[], event_date date)
RETURNS TABLE (category text, show_date date, previous_date date, grid_day boolean) AS $$
  SELECT c.category, r.show_date, coalesce(r.previous_date, '-infinity'::date),
    event_date = DATE '1989-01-01' OR r.show_date = event_date
  FROM event_show_date_rows(dates, event_date) AS r
  CROSS JOIN (SELECT DISTINCT unnest(array_append(categories, '')) AS category) AS c
  WHERE c.category IS NOT NULL
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- Keeps "event_show_dates" and "show_date_counts" in step with an event (rows and counts hold approved, paid events):
-- the rows are rewritten when the dates, the categories or the statuses change, and the counts take back what the
-- event was and add what it is (one net change per key, in key order, so concurrent writers lock the rows they share
-- in the same order). A deleted event's rows go by cascade.
CREATE OR REPLACE FUNCTION events_show_dates_sync() RETURNS trigger AS $$
DECLARE
  was_live boolean := TG_OP <> 'INSERT' AND OLD."eventStatus" = 'approved' AND OLD."paymentStatus" = 'paid';
  is_live boolean := TG_OP <> 'DELETE' AND NEW."eventStatus" = 'approved' AND NEW."paymentStatus" = 'paid';
  rows_changed boolean := TG_OP <> 'UPDATE' OR NEW."showAdOnDates" IS DISTINCT FROM OLD."showAdOnDates"
    OR NEW."eventDate" IS DISTINCT FROM OLD."eventDate" OR NEW."category" IS DISTINCT FROM OLD."category"
    OR was_live IS DISTINCT FROM is_live;
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
      INSERT INTO "event_show_dates" ("event_id", "show_date", "previous_date", "category", "grid_day", "last_date")
      SELECT NEW."eventID", r.show_date, r.previous_date, NEW."category",
        NEW."eventDate" = DATE '1989-01-01' OR r.show_date = NEW."eventDate", max(r.show_date) OVER ()
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
INSERT INTO "show_date_counts" ("category", "show_date", "previous_date", "grid_day", "events")
SELECT k.category, k.show_date, k.previous_date, k.grid_day, count(*)
FROM "events" AS e
CROSS JOIN LATERAL show_date_count_keys(e."category", e."showAdOnDates", e."eventDate") AS k
WHERE e."eventStatus" = 'approved' AND e."paymentStatus" = 'paid'
GROUP BY 1, 2, 3, 4;
