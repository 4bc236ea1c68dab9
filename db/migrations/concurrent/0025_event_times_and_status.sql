-- The listing's walk and the month grid in date, then time order (all-day first); "Hide cancelled" and the
-- digests' changes read the few ads that are off (0025_event_times_and_status.sql).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "event_show_dates_time_idx" ON "event_show_dates" USING btree ("show_date","start_time" NULLS FIRST,"event_id","previous_date");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "event_show_dates_grid_time_idx" ON "event_show_dates" USING btree ("show_date","start_time" NULLS FIRST,"event_id","last_date","category") WHERE grid_day;
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "events_schedule_status_idx" ON "events" USING btree ("scheduleStatus","lastShowDate") WHERE "scheduleStatus" IS NOT NULL;
