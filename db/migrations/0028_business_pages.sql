-- Business pages: the advertiser's "Show my business page" (on by default), and visitors following a business
-- (a subscription of kind 'business'). The indexes (the follows', and the ads' by business for the pages) are
-- built without blocking writes: concurrent/0028_business_pages.sql.
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_kind_check";--> statement-breakpoint
ALTER TABLE "business" ADD COLUMN "showBusinessPage" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "businessId" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_businessId_business_businessID_fk" FOREIGN KEY ("businessId") REFERENCES "public"."business"("businessID") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_kind_check" CHECK ("subscriptions"."kind" in ('search', 'reminder', 'business'));
