-- The Sponsored slots read the few live sponsored ads, in id order (0029_sponsored_placement.sql).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "events_live_sponsored_idx" ON "events" USING btree ("lastShowDate","eventID") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid' AND "sponsored";
