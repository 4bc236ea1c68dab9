-- A promo code's use is held for an ad only while its payment is under way: until "reservedUntil", renewed while
-- the same checkout is still paying; past it the use is free again. Nullable, so the previous release keeps inserting
-- its reservations without it (decision 041); those are held for 15 minutes after their "createdAt".
ALTER TABLE "promo_redemptions" ADD COLUMN "reservedUntil" timestamp with time zone;
