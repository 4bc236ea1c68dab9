CREATE TABLE "live_event_texts" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"category" text[] NOT NULL,
	"last_date" date NOT NULL,
	"grid_dates" date[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_event_texts" ADD CONSTRAINT "live_event_texts_event_id_events_eventID_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_event_texts_description_idx" ON "live_event_texts" USING gin ("description" gin_trgm_ops);
--> statement-breakpoint
-- The days the month grid lists an ad on: its own date when it has one, else each of its display dates.
CREATE FUNCTION event_grid_dates(dates date[], event_date date) RETURNS date[] AS $$
  SELECT ARRAY(
    SELECT r.show_date FROM event_show_date_rows(dates, event_date) AS r
    WHERE event_date = DATE '1989-01-01' OR r.show_date = event_date
    ORDER BY r.show_date)
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
-- Keeps "live_event_texts" in step with an ad: an approved, paid ad whose last date is at most two days past (an ad
-- over for longer is over in every time zone) has its row; any other ad has none. A deleted ad's row goes by cascade.
CREATE FUNCTION events_live_texts_sync() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND NEW."eventDescription" IS NOT DISTINCT FROM OLD."eventDescription"
    AND NEW."category" IS NOT DISTINCT FROM OLD."category"
    AND NEW."showAdOnDates" IS NOT DISTINCT FROM OLD."showAdOnDates"
    AND NEW."eventDate" IS NOT DISTINCT FROM OLD."eventDate"
    AND NEW."lastShowDate" IS NOT DISTINCT FROM OLD."lastShowDate"
    AND NEW."eventStatus" IS NOT DISTINCT FROM OLD."eventStatus"
    AND NEW."paymentStatus" IS NOT DISTINCT FROM OLD."paymentStatus" THEN
    RETURN NULL;
  END IF;
  IF NEW."eventStatus" = 'approved' AND NEW."paymentStatus" = 'paid' AND NEW."lastShowDate" >= current_date - 2 THEN
    INSERT INTO "live_event_texts" ("event_id", "description", "category", "last_date", "grid_dates")
    VALUES (NEW."eventID", lower(NEW."eventDescription"), NEW."category", NEW."lastShowDate",
      event_grid_dates(NEW."showAdOnDates", NEW."eventDate"))
    ON CONFLICT ("event_id") DO UPDATE SET "description" = excluded."description", "category" = excluded."category",
      "last_date" = excluded."last_date", "grid_dates" = excluded."grid_dates";
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM "live_event_texts" WHERE "event_id" = OLD."eventID";
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_live_texts_sync
  AFTER INSERT OR UPDATE OF "eventDescription", "category", "showAdOnDates", "eventDate", "lastShowDate",
    "eventStatus", "paymentStatus" ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_live_texts_sync();
--> statement-breakpoint
INSERT INTO "live_event_texts" ("event_id", "description", "category", "last_date", "grid_dates")
SELECT "eventID", lower("eventDescription"), "category", "lastShowDate", event_grid_dates("showAdOnDates", "eventDate")
FROM "events"
WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "lastShowDate" >= current_date - 2;
