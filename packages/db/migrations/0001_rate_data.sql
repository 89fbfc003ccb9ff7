CREATE TABLE "cbsas" (
	"code" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"kind" text NOT NULL,
	"state_codes" text[] NOT NULL
);
--> statement-breakpoint
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
);
--> statement-breakpoint
CREATE TABLE "codes" (
	"type" text NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"category" text NOT NULL,
	CONSTRAINT "codes_type_code_pk" PRIMARY KEY("type","code")
);
--> statement-breakpoint
CREATE TABLE "counties" (
	"fips" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"state_code" text NOT NULL,
	"cbsa_code" text,
	"central" boolean
);
--> statement-breakpoint
CREATE TABLE "hospital_summaries" (
	"hospital_id" uuid PRIMARY KEY NOT NULL,
	"items" integer NOT NULL,
	"rates" integer NOT NULL,
	"has_cash" boolean NOT NULL,
	"has_commercial" boolean NOT NULL,
	"has_medicare" boolean NOT NULL,
	"has_inpatient" boolean NOT NULL,
	"has_outpatient" boolean NOT NULL,
	"has_drugs" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hospitals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_key" text NOT NULL,
	"name" text NOT NULL,
	"state_code" text,
	"license_number" text,
	"license_state" text,
	"type_2_npis" text[] DEFAULT '{}'::text[] NOT NULL,
	"location_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"zip" text,
	"county_fips" text,
	"cbsa_code" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "item_codes" (
	"hospital_id" uuid NOT NULL,
	"item_id" integer NOT NULL,
	"code_type" text NOT NULL,
	"code" text NOT NULL,
	"category" text NOT NULL,
	CONSTRAINT "item_codes_hospital_id_item_id_code_type_code_pk" PRIMARY KEY("hospital_id","item_id","code_type","code")
);
--> statement-breakpoint
CREATE TABLE "medicare_gpcis" (
	"year" integer NOT NULL,
	"carrier" text NOT NULL,
	"locality" text NOT NULL,
	"name" text NOT NULL,
	"work_gpci" numeric NOT NULL,
	"pe_gpci" numeric NOT NULL,
	"mp_gpci" numeric NOT NULL,
	CONSTRAINT "medicare_gpcis_year_carrier_locality_pk" PRIMARY KEY("year","carrier","locality")
);
--> statement-breakpoint
CREATE TABLE "medicare_rvus" (
	"year" integer NOT NULL,
	"hcpcs" text NOT NULL,
	"modifier" text DEFAULT '' NOT NULL,
	"status" text,
	"work_rvu" numeric,
	"non_facility_pe_rvu" numeric,
	"facility_pe_rvu" numeric,
	"mp_rvu" numeric,
	"global_days" text,
	"conversion_factor" numeric NOT NULL,
	CONSTRAINT "medicare_rvus_year_hcpcs_modifier_pk" PRIMARY KEY("year","hcpcs","modifier")
);
--> statement-breakpoint
CREATE TABLE "mrf_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hospital_id" uuid,
	"source" text NOT NULL,
	"sha256" text,
	"bytes" bigint,
	"format" text,
	"version" text,
	"last_updated_on" date,
	"status" text NOT NULL,
	"items" integer DEFAULT 0 NOT NULL,
	"rates" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"validation" jsonb,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"duration_ms" integer
);
--> statement-breakpoint
CREATE TABLE "nadac_prices" (
	"ndc" text NOT NULL,
	"effective_date" date NOT NULL,
	"description" text NOT NULL,
	"per_unit" numeric NOT NULL,
	"pricing_unit" text,
	"pharmacy_type" text,
	"otc" boolean,
	"classification" text,
	"as_of_date" date,
	CONSTRAINT "nadac_prices_ndc_effective_date_pk" PRIMARY KEY("ndc","effective_date")
);
--> statement-breakpoint
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
);
--> statement-breakpoint
CREATE TABLE "payers" (
	"id" serial PRIMARY KEY NOT NULL,
	"canonical_name" text NOT NULL,
	CONSTRAINT "payers_canonical_name_unique" UNIQUE("canonical_name")
);
--> statement-breakpoint
CREATE TABLE "states" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"fips" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zip_localities" (
	"zip" text PRIMARY KEY NOT NULL,
	"state_code" text NOT NULL,
	"carrier" text NOT NULL,
	"locality" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "counties_cbsa_idx" ON "counties" USING btree ("cbsa_code");--> statement-breakpoint
CREATE UNIQUE INDEX "hospitals_source_key" ON "hospitals" USING btree ("source_key");--> statement-breakpoint
CREATE INDEX "hospitals_geo_idx" ON "hospitals" USING btree ("state_code","cbsa_code");--> statement-breakpoint
CREATE INDEX "item_codes_code_idx" ON "item_codes" USING btree ("code","code_type","hospital_id");--> statement-breakpoint
CREATE INDEX "mrf_files_hospital_idx" ON "mrf_files" USING btree ("hospital_id","started_at");--> statement-breakpoint
CREATE INDEX "mrf_files_sha_idx" ON "mrf_files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "negotiated_rates_item_idx" ON "negotiated_rates" USING btree ("hospital_id","item_id");