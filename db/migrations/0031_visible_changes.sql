-- What visitors see of an ad, as search engines are told of it (docs/decisions/042): when it last changed (the
-- sitemap's lastmod), the next date a postponed ad had before it was given new ones (its JSON-LD's
-- previousStartDate), and the queue of live ads IndexNow is to be told of. Both are kept by the database on every
-- write of what a visitor sees, whichever code made it, as the calendar sequence is (0025). No row is rewritten:
-- the columns are nullable and the table is new (decision 041).
CREATE TABLE "index_now_queue" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"previous_title" varchar(250)
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "visibleChangedAt" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "previousStartDate" date;--> statement-breakpoint
ALTER TABLE "index_now_queue" ADD CONSTRAINT "index_now_queue_event_id_events_eventID_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- An ad that is approved and paid before or after the write (it went live, changed, or left the public pages) is
-- queued for IndexNow once; a change while it waits moves its time on, so a ping under way does not take it off the
-- queue. The title it had when first queued stays: its page's address then.
CREATE FUNCTION events_queue_index_now(was_live boolean, is_live boolean, ad integer, title text)
RETURNS void AS $$
BEGIN
  IF was_live OR is_live THEN
    INSERT INTO "index_now_queue" ("event_id", "queued_at", "previous_title")
    VALUES (ad, now(), title)
    ON CONFLICT ("event_id") DO UPDATE SET "queued_at" = excluded."queued_at";
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION events_mark_visible_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF TG_WHEN = 'BEFORE' THEN
      NEW."visibleChangedAt" := coalesce(NEW."visibleChangedAt", now());
      RETURN NEW;
    END IF;
    -- After the row exists, for the queue's reference to it.
    PERFORM events_queue_index_now(false, NEW."eventStatus" = 'approved' AND NEW."paymentStatus" = 'paid',
      NEW."eventID", NULL);
    RETURN NULL;
  END IF;
  NEW."visibleChangedAt" := now();
  PERFORM events_queue_index_now(OLD."eventStatus" = 'approved' AND OLD."paymentStatus" = 'paid',
    NEW."eventStatus" = 'approved' AND NEW."paymentStatus" = 'paid', NEW."eventID", OLD."eventTitle");
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER events_visible_changed_on_insert BEFORE INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_mark_visible_change();
--> statement-breakpoint
CREATE TRIGGER events_index_now_on_insert AFTER INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION events_mark_visible_change();
--> statement-breakpoint
-- The columns a visitor sees on the ad's page, card, feeds or structured data: the status, the schedule status, the
-- dates, times, texts, categories, contact, place, facts and media.
CREATE TRIGGER events_visible_changed BEFORE UPDATE ON "events"
  FOR EACH ROW
  WHEN (OLD."eventStatus" IS DISTINCT FROM NEW."eventStatus"
    OR OLD."paymentStatus" IS DISTINCT FROM NEW."paymentStatus"
    OR OLD."scheduleStatus" IS DISTINCT FROM NEW."scheduleStatus"
    OR OLD."scheduleNote" IS DISTINCT FROM NEW."scheduleNote"
    OR OLD."eventDate" IS DISTINCT FROM NEW."eventDate"
    OR OLD."showAdOnDates" IS DISTINCT FROM NEW."showAdOnDates"
    OR OLD."previousStartDate" IS DISTINCT FROM NEW."previousStartDate"
    OR OLD."startTime" IS DISTINCT FROM NEW."startTime"
    OR OLD."endTime" IS DISTINCT FROM NEW."endTime"
    OR OLD."eventTitle" IS DISTINCT FROM NEW."eventTitle"
    OR OLD."eventDescription" IS DISTINCT FROM NEW."eventDescription"
    OR OLD."businessName" IS DISTINCT FROM NEW."businessName"
    OR OLD."category" IS DISTINCT FROM NEW."category"
    OR OLD."contactPerson" IS DISTINCT FROM NEW."contactPerson"
    OR OLD."contactPhone" IS DISTINCT FROM NEW."contactPhone"
    OR OLD."contactEmail" IS DISTINCT FROM NEW."contactEmail"
    OR OLD."stillPhotoURL" IS DISTINCT FROM NEW."stillPhotoURL"
    OR OLD."videoURL" IS DISTINCT FROM NEW."videoURL"
    OR OLD."ticketUrl" IS DISTINCT FROM NEW."ticketUrl"
    OR OLD."priceCents" IS DISTINCT FROM NEW."priceCents"
    OR OLD."attendanceMode" IS DISTINCT FROM NEW."attendanceMode"
    OR OLD."venueAddress" IS DISTINCT FROM NEW."venueAddress"
    OR OLD."venueCity" IS DISTINCT FROM NEW."venueCity"
    OR OLD."venueState" IS DISTINCT FROM NEW."venueState"
    OR OLD."venueZip" IS DISTINCT FROM NEW."venueZip"
    OR OLD."onlineUrl" IS DISTINCT FROM NEW."onlineUrl"
    OR OLD."accessibilityFeatures" IS DISTINCT FROM NEW."accessibilityFeatures"
    OR OLD."accessibilityNote" IS DISTINCT FROM NEW."accessibilityNote"
    OR OLD."accessibilityContact" IS DISTINCT FROM NEW."accessibilityContact"
    OR OLD."ageRange" IS DISTINCT FROM NEW."ageRange")
  EXECUTE FUNCTION events_mark_visible_change();
