-- A scan of an ad's QR code is a visit of its own source: a row of clickCount with "qrScan", added to the day's
-- "scans", never to its clicks (0029_sponsored_placement.sql). Both columns have a constant default (decision 041):
-- the previous release writes clicks as before, and its rows count as they did.
ALTER TABLE "clickCount" ADD COLUMN "qrScan" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_daily_stats" ADD COLUMN "scans" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION click_count_daily_stats() RETURNS trigger AS $$
BEGIN
  INSERT INTO "event_daily_stats" ("eventID", "businessID", "day", "clicks", "bounces", "slotClicks", "scans")
  SELECT "eventID", min("businessID"), "clickDate",
    count(*) FILTER (WHERE NOT "bounceClick" AND NOT "qrScan"), count(*) FILTER (WHERE "bounceClick"),
    count(*) FILTER (WHERE NOT "bounceClick" AND NOT "qrScan" AND "fromSponsoredSlot"),
    count(*) FILTER (WHERE "qrScan")
  FROM new_rows GROUP BY "eventID", "clickDate"
  ON CONFLICT ("eventID", "day") DO UPDATE
    SET "clicks" = "event_daily_stats"."clicks" + EXCLUDED."clicks",
        "bounces" = "event_daily_stats"."bounces" + EXCLUDED."bounces",
        "slotClicks" = "event_daily_stats"."slotClicks" + EXCLUDED."slotClicks",
        "scans" = "event_daily_stats"."scans" + EXCLUDED."scans";
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
