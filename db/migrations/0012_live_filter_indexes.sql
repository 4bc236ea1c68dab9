-- btree_gin lets one GIN index hold the category (or description trigrams) and the last show date together.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "events_category_idx";--> statement-breakpoint
DROP INDEX "events_description_trgm_idx";--> statement-breakpoint
CREATE INDEX "events_live_category_idx" ON "events" USING gin ("category","lastShowDate") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid';--> statement-breakpoint
CREATE INDEX "events_live_description_trgm_idx" ON "events" USING gin ("eventDescription" gin_trgm_ops,"lastShowDate") WHERE "eventStatus" = 'approved' AND "paymentStatus" = 'paid';