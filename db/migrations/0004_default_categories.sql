-- The default categories belong to every install, not only to the demo data (DEFAULT_CATEGORIES in
-- app/constants.ts; a test checks that a migrated database has exactly those). Existing names are kept as they are.
INSERT INTO "categoryList" ("categoryName") VALUES
  ('Concert'),
  ('Fundraiser'),
  ('Grand Opening'),
  ('Special'),
  ('Community'),
  ('Food & Drink'),
  ('Sports'),
  ('Arts'),
  ('Family'),
  ('Nightlife'),
  ('Other')
ON CONFLICT ("categoryName") DO NOTHING;
