ALTER TABLE "clickCount" ADD COLUMN "fromSponsoredSlot" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_daily_stats" ADD COLUMN "slotViews" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_daily_stats" ADD COLUMN "slotClicks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sponsored" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sponsoredCents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sponsoredAt" timestamp with time zone;--> statement-breakpoint
-- A click from a Sponsored slot is a click, and a slot click besides (0009_event_daily_stats.sql).
CREATE OR REPLACE FUNCTION click_count_daily_stats() RETURNS trigger AS $$
BEGIN
  INSERT INTO "event_daily_stats" ("eventID", "businessID", "day", "clicks", "bounces", "slotClicks")
  SELECT "eventID", min("businessID"), "clickDate",
    count(*) FILTER (WHERE NOT "bounceClick"), count(*) FILTER (WHERE "bounceClick"),
    count(*) FILTER (WHERE NOT "bounceClick" AND "fromSponsoredSlot")
  FROM new_rows GROUP BY "eventID", "clickDate"
  ON CONFLICT ("eventID", "day") DO UPDATE
    SET "clicks" = "event_daily_stats"."clicks" + EXCLUDED."clicks",
        "bounces" = "event_daily_stats"."bounces" + EXCLUDED."bounces",
        "slotClicks" = "event_daily_stats"."slotClicks" + EXCLUDED."slotClicks";
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
