-- A rate row carries the id of its payer and plan (payer_plans) instead of the payer's id, the
-- payer and plan names and the line of business: four columns repeated on millions of rows. Its
-- key becomes (hospital, item, rate), what every reader looks rates up by, in place of a key on
-- the rate and an index on the item. Together they halve PostgreSQL's work per loaded rate
-- (docs/decisions/0013-ingest-loading.md). Existing rows keep their payer and plan.
CREATE TABLE "payer_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"payer_id" integer NOT NULL,
	"payer_name" text NOT NULL,
	"plan_name" text NOT NULL,
	"line_of_business" text NOT NULL,
	CONSTRAINT "payer_plans_names_unique" UNIQUE("payer_name","plan_name")
);
ALTER TABLE "payer_plans" ADD CONSTRAINT "payer_plans_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE no action ON UPDATE no action;

INSERT INTO "payer_plans" ("payer_id", "payer_name", "plan_name", "line_of_business")
SELECT DISTINCT ON ("payer_name", "plan_name") "payer_id", "payer_name", "plan_name", "line_of_business"
  FROM "negotiated_rates"
 ORDER BY "payer_name", "plan_name";

ALTER TABLE "negotiated_rates" ADD COLUMN "plan_id" integer;
UPDATE "negotiated_rates" r SET "plan_id" = p."id"
  FROM "payer_plans" p
 WHERE p."payer_name" = r."payer_name" AND p."plan_name" = r."plan_name";
ALTER TABLE "negotiated_rates" ALTER COLUMN "plan_id" SET NOT NULL;

DROP INDEX "negotiated_rates_item_idx";
ALTER TABLE "negotiated_rates" DROP CONSTRAINT "negotiated_rates_hospital_id_rate_id_pk";
ALTER TABLE "negotiated_rates"
  DROP COLUMN "payer_id",
  DROP COLUMN "payer_name",
  DROP COLUMN "plan_name",
  DROP COLUMN "line_of_business";
ALTER TABLE "negotiated_rates" ADD CONSTRAINT "negotiated_rates_hospital_id_item_id_rate_id_pk" PRIMARY KEY("hospital_id","item_id","rate_id");
