-- The rate tables become LIST-partitioned by hospital, one partition per hospital and table, so an
-- ingest swaps a hospital's rows by attaching freshly loaded and indexed tables and dropping the
-- old ones (docs/decisions/0013-ingest-loading.md). Columns, keys and index names are unchanged;
-- existing rows move into one partition per hospital.
ALTER TABLE "charge_items" RENAME TO "charge_items_unpartitioned";
ALTER TABLE "charge_items_unpartitioned" RENAME CONSTRAINT "charge_items_hospital_id_item_id_pk" TO "charge_items_unpartitioned_pk";
ALTER TABLE "item_codes" RENAME TO "item_codes_unpartitioned";
ALTER TABLE "item_codes_unpartitioned" RENAME CONSTRAINT "item_codes_hospital_id_item_id_code_type_code_pk" TO "item_codes_unpartitioned_pk";
ALTER INDEX "item_codes_code_idx" RENAME TO "item_codes_unpartitioned_code_idx";
ALTER TABLE "negotiated_rates" RENAME TO "negotiated_rates_unpartitioned";
ALTER TABLE "negotiated_rates_unpartitioned" RENAME CONSTRAINT "negotiated_rates_hospital_id_rate_id_pk" TO "negotiated_rates_unpartitioned_pk";
ALTER INDEX "negotiated_rates_item_idx" RENAME TO "negotiated_rates_unpartitioned_item_idx";

CREATE TABLE "charge_items" (
	"hospital_id" uuid NOT NULL,
	"item_id" integer NOT NULL,
	"mrf_file_id" uuid NOT NULL,
	"description" text NOT NULL,
	"setting" text,
	"billing_class" text,
	"modifiers" text[] NOT NULL,
	"drug_unit" numeric,
	"drug_type" text,
	"gross" numeric,
	"discounted_cash" numeric,
	"min" numeric,
	"max" numeric,
	"notes" text,
	CONSTRAINT "charge_items_hospital_id_item_id_pk" PRIMARY KEY("hospital_id","item_id")
) PARTITION BY LIST ("hospital_id");

CREATE TABLE "item_codes" (
	"hospital_id" uuid NOT NULL,
	"item_id" integer NOT NULL,
	"code_type" text NOT NULL,
	"code" text NOT NULL,
	"category" text NOT NULL,
	CONSTRAINT "item_codes_hospital_id_item_id_code_type_code_pk" PRIMARY KEY("hospital_id","item_id","code_type","code")
) PARTITION BY LIST ("hospital_id");
CREATE INDEX "item_codes_code_idx" ON "item_codes" USING btree ("code","code_type","hospital_id");

CREATE TABLE "negotiated_rates" (
	"hospital_id" uuid NOT NULL,
	"rate_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"payer_id" integer NOT NULL,
	"payer_name" text NOT NULL,
	"plan_name" text NOT NULL,
	"line_of_business" text NOT NULL,
	"methodology" text,
	"dollar" numeric,
	"percentage" numeric,
	"algorithm" text,
	"estimated_amount" numeric,
	"median" numeric,
	"p10" numeric,
	"p90" numeric,
	"count" text,
	"notes" text,
	"effective_amount" numeric,
	"effective_origin" text,
	CONSTRAINT "negotiated_rates_hospital_id_rate_id_pk" PRIMARY KEY("hospital_id","rate_id")
) PARTITION BY LIST ("hospital_id");
CREATE INDEX "negotiated_rates_item_idx" ON "negotiated_rates" USING btree ("hospital_id","item_id");

-- A row written straight into a rate table (a test's seed, say) for a hospital without a partition
-- of its own lands in the default partition; the hospital's next ingest replaces it.
CREATE TABLE "charge_items_default" PARTITION OF "charge_items" DEFAULT;
CREATE TABLE "item_codes_default" PARTITION OF "item_codes" DEFAULT;
CREATE TABLE "negotiated_rates_default" PARTITION OF "negotiated_rates" DEFAULT;

-- One partition per hospital that has rows, named after the hospital (an ingest names its own
-- after its run: the loader finds a hospital's partitions by their bound, not by name).
DO $$
DECLARE
  hospital uuid;
  parent text;
BEGIN
  FOR hospital IN
    SELECT hospital_id FROM "charge_items_unpartitioned"
    UNION SELECT hospital_id FROM "item_codes_unpartitioned"
    UNION SELECT hospital_id FROM "negotiated_rates_unpartitioned"
  LOOP
    FOREACH parent IN ARRAY ARRAY['charge_items', 'item_codes', 'negotiated_rates'] LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES IN (%L)',
                     parent || '_' || replace(hospital::text, '-', ''), parent, hospital);
    END LOOP;
  END LOOP;
END $$;

INSERT INTO "charge_items" SELECT * FROM "charge_items_unpartitioned";
INSERT INTO "item_codes" SELECT * FROM "item_codes_unpartitioned";
INSERT INTO "negotiated_rates" SELECT * FROM "negotiated_rates_unpartitioned";
DROP TABLE "charge_items_unpartitioned", "item_codes_unpartitioned", "negotiated_rates_unpartitioned";

-- Staging tables of the previous loader, left by a run that was killed before this upgrade.
DO $$
DECLARE
  staging text;
BEGIN
  FOR staging IN
    SELECT tablename FROM pg_tables
     WHERE schemaname = current_schema() AND tablename ~ '^staging_(items|codes|rates)_[0-9a-f]{32}$'
  LOOP
    EXECUTE format('DROP TABLE %I', staging);
  END LOOP;
END $$;
