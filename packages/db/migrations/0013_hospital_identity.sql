-- A hospital is its licence and its name (docs/decisions/0011-rate-data.md, "Same hospital"):
-- locations under one licence that publish files of their own are hospitals of their own, where
-- each had replaced the other's rates. The name part is its ASCII letters and digits in lower
-- case, as hospitalSourceKey (packages/ingest/src/load/ingest-file.ts) writes it.
UPDATE "hospitals"
   SET "source_key" = "source_key" || ':' || lower(regexp_replace("name", '[^A-Za-z0-9]+', '', 'g'))
 WHERE "source_key" LIKE 'license:%';
