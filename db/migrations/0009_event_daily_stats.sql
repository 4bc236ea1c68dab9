CREATE TABLE "event_daily_stats" (
	"eventID" integer NOT NULL,
	"businessID" integer NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"bounces" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_daily_stats_eventID_day_pk" PRIMARY KEY("eventID","day")
);
--> statement-breakpoint
ALTER TABLE "categoryList" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_daily_stats" ADD CONSTRAINT "event_daily_stats_eventID_events_eventID_fk" FOREIGN KEY ("eventID") REFERENCES "public"."events"("eventID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_daily_stats" ADD CONSTRAINT "event_daily_stats_businessID_business_businessID_fk" FOREIGN KEY ("businessID") REFERENCES "public"."business"("businessID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_daily_stats_business_idx" ON "event_daily_stats" USING btree ("businessID","day");--> statement-breakpoint
-- Every click or bounce written to clickCount is added to its ad's day here, in the same statement, so the daily
-- figures never disagree with the rows (the tracking calls, the seed and anything else that inserts them).
CREATE OR REPLACE FUNCTION click_count_daily_stats() RETURNS trigger AS $$
BEGIN
  INSERT INTO "event_daily_stats" ("eventID", "businessID", "day", "clicks", "bounces")
  SELECT "eventID", min("businessID"), "clickDate",
    count(*) FILTER (WHERE NOT "bounceClick"), count(*) FILTER (WHERE "bounceClick")
  FROM new_rows GROUP BY "eventID", "clickDate"
  ON CONFLICT ("eventID", "day") DO UPDATE
    SET "clicks" = "event_daily_stats"."clicks" + EXCLUDED."clicks",
        "bounces" = "event_daily_stats"."bounces" + EXCLUDED."bounces";
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "click_count_daily_stats" AFTER INSERT ON "clickCount"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION click_count_daily_stats();
--> statement-breakpoint
-- The clicks and bounces recorded before this table existed.
INSERT INTO "event_daily_stats" ("eventID", "businessID", "day", "clicks", "bounces")
SELECT "eventID", min("businessID"), "clickDate",
  count(*) FILTER (WHERE NOT "bounceClick"), count(*) FILTER (WHERE "bounceClick")
FROM "clickCount" GROUP BY "eventID", "clickDate";
