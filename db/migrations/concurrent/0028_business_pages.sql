-- A business's followers (subscriptions of kind 'business'), for deleting them with it (0028_business_pages.sql).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscriptions_business_idx" ON "subscriptions" USING btree ("businessId");
--> statement-breakpoint
-- A business's page: whether it has a live ad, its live ads and its past ones, read by business.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "events_live_business_idx" ON "events" USING btree ("businessID","lastShowDate") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid';
