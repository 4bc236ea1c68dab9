-- A business's followers (subscriptions of kind 'business'), for deleting them with it (0027_business_pages.sql).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "subscriptions_business_idx" ON "subscriptions" USING btree ("businessId");
