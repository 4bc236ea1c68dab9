CREATE TABLE "event_show_dates" (
	"event_id" integer NOT NULL,
	"show_date" date NOT NULL,
	"previous_date" date,
	CONSTRAINT "event_show_dates_event_id_show_date_pk" PRIMARY KEY("event_id","show_date")
);
--> statement-breakpoint
ALTER TABLE "event_show_dates" ADD CONSTRAINT "event_show_dates_event_id_events_eventID_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_show_dates_date_idx" ON "event_show_dates" USING btree ("show_date","event_id","previous_date");--> statement-breakpoint
-- The show dates of an approved, paid event (its display dates and its event date when set; '1989-01-01' is the
-- unset marker), each with the one before it. Rewritten whenever the dates or the statuses change.
CREATE OR REPLACE FUNCTION events_show_dates_sync() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW."showAdOnDates" IS NOT DISTINCT FROM OLD."showAdOnDates" AND NEW."eventDate" = OLD."eventDate"
      AND NEW."eventStatus" = OLD."eventStatus" AND NEW."paymentStatus" = OLD."paymentStatus" THEN
      RETURN NULL;
    END IF;
    DELETE FROM "event_show_dates" WHERE "event_id" = OLD."eventID";
  END IF;
  IF NEW."eventStatus" = 'approved' AND NEW."paymentStatus" = 'paid' THEN
    INSERT INTO "event_show_dates" ("event_id", "show_date", "previous_date")
    SELECT NEW."eventID", d, lag(d) OVER (ORDER BY d)
    FROM (
      SELECT DISTINCT d FROM unnest(array_append(NEW."showAdOnDates",
        CASE WHEN NEW."eventDate" <> DATE '1989-01-01' THEN NEW."eventDate" END)) AS d
      WHERE d IS NOT NULL
    ) AS dates;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_show_dates_sync
  AFTER INSERT OR UPDATE OF "showAdOnDates", "eventDate", "eventStatus", "paymentStatus" ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_show_dates_sync();
--> statement-breakpoint
INSERT INTO "event_show_dates" ("event_id", "show_date", "previous_date")
SELECT e."eventID", d, lag(d) OVER (PARTITION BY e."eventID" ORDER BY d)
FROM "events" e
CROSS JOIN LATERAL (
  SELECT DISTINCT d FROM unnest(array_append(e."showAdOnDates",
    CASE WHEN e."eventDate" <> DATE '1989-01-01' THEN e."eventDate" END)) AS d
  WHERE d IS NOT NULL
) AS dates
WHERE e."eventStatus" = 'approved' AND e."paymentStatus" = 'paid';
