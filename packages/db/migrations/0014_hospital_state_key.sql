-- A hospital without a licence state is its name and the state its address places it in
-- (docs/decisions/0011-rate-data.md, "Same hospital"), as hospitalSourceKey
-- (packages/ingest/src/load/ingest-file.ts) writes it: before, its key had no state ("name::…"),
-- so same-named hospitals of two states replaced each other's rates. The state is the one its
-- address placed it in (state_code). A hospital whose new key another one has already keeps its
-- old key: its files are read as that other hospital's from now on.
UPDATE "hospitals" AS h
   SET "source_key" = 'name:' || h."state_code" || substr(h."source_key", 6)
 WHERE h."source_key" LIKE 'name::%'
   AND h."state_code" IS NOT NULL
   AND NOT EXISTS (
     SELECT 1 FROM "hospitals" o
      WHERE o."source_key" = 'name:' || h."state_code" || substr(h."source_key", 6)
   );
