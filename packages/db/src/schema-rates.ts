import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

/*
 * Rate data (issue 3). Reference tables (states, cbsas, counties, codes, payers) are small and
 * replicable; rate tables (charge_items, item_codes, negotiated_rates) carry hospital_id first in
 * their primary key, the distribution column if they ever move to Citus, and no reference table
 * has a foreign key into them (shared/ARCHITECTURE.md, "Runtime and database").
 *
 * The three rate tables are LIST-partitioned by hospital_id, one partition per hospital, which
 * Drizzle cannot declare: migration 0006 (custom SQL) makes them so, and the ingest attaches a
 * hospital's freshly loaded tables as its partitions (packages/ingest/src/load/rate-tables.ts,
 * docs/decisions/0013-ingest-loading.md). A change to their columns or indexes here needs the
 * same change there.
 */

export const states = pgTable('states', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  fips: text('fips').notNull(),
});

export const cbsas = pgTable('cbsas', {
  code: text('code').primaryKey(),
  title: text('title').notNull(),
  /** metropolitan | micropolitan | nonmetro (a per-state group of hospitals outside any CBSA). */
  kind: text('kind').notNull(),
  stateCodes: text('state_codes').array().notNull(),
});

export const counties = pgTable(
  'counties',
  {
    fips: text('fips').primaryKey(),
    name: text('name').notNull(),
    stateCode: text('state_code').notNull(),
    cbsaCode: text('cbsa_code'),
    central: boolean('central'),
  },
  (t) => [index('counties_cbsa_idx').on(t.cbsaCode)],
);

export const codes = pgTable(
  'codes',
  {
    type: text('type').notNull(),
    code: text('code').notNull(),
    /** Only for code sets we may show: HCPCS Level II from CMS, MS-DRG names from the files. Never CPT text. */
    description: text('description'),
    category: text('category').notNull(),
  },
  (t) => [primaryKey({ columns: [t.type, t.code] })],
);

export const payers = pgTable('payers', {
  id: serial('id').primaryKey(),
  canonicalName: text('canonical_name').notNull().unique(),
});

/**
 * A payer and plan as a file names them, with the canonical payer and the line of business
 * inferred from the names: shared by every hospital's rates that carry the pair, so a rate row
 * holds one integer instead of three strings (docs/decisions/0013-ingest-loading.md).
 */
export const payerPlans = pgTable(
  'payer_plans',
  {
    id: serial('id').primaryKey(),
    payerId: integer('payer_id')
      .notNull()
      .references(() => payers.id),
    payerName: text('payer_name').notNull(),
    planName: text('plan_name').notNull(),
    /** LineOfBusiness in @ratelens/core. */
    lineOfBusiness: text('line_of_business').notNull(),
  },
  (t) => [unique('payer_plans_names_unique').on(t.payerName, t.planName)],
);

export const hospitals = pgTable(
  'hospitals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What identifies "the same hospital" across its files: licence state and number, else name and state. */
    sourceKey: text('source_key').notNull(),
    name: text('name').notNull(),
    stateCode: text('state_code'),
    licenseNumber: text('license_number'),
    licenseState: text('license_state'),
    type2Npis: text('type_2_npis')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    locationNames: text('location_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    addresses: text('addresses')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    zip: text('zip'),
    countyFips: text('county_fips'),
    cbsaCode: text('cbsa_code'),
    /** Medicare carrier and physician-fee-schedule locality of the hospital's ZIP (CMS ZIP5 file). */
    medicareCarrier: text('medicare_carrier'),
    medicareLocality: text('medicare_locality'),
    /**
     * The spec's HospitalType and healthsystemType. CMS files carry neither, so ingest never sets
     * them: an admin does (`PUT /api/admin/hospitals/:id/classification`), and the demo data.
     */
    hospitalType: text('hospital_type'),
    healthSystemType: text('health_system_type'),
    isDemo: boolean('is_demo').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('hospitals_source_key').on(t.sourceKey),
    index('hospitals_geo_idx').on(t.stateCode, t.cbsaCode),
  ],
);

/** Every ingest run of a file, successful or not. */
export const mrfFiles = pgTable(
  'mrf_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hospitalId: uuid('hospital_id'),
    source: text('source').notNull(),
    sha256: text('sha256'),
    bytes: bigint('bytes', { mode: 'number' }),
    format: text('format'),
    version: text('version'),
    lastUpdatedOn: date('last_updated_on'),
    /** loading | loaded | replaced | unchanged | skipped | older | failed */
    status: text('status').notNull(),
    items: integer('items').notNull().default(0),
    rates: integer('rates').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    validation: jsonb('validation'),
    /** The file's rates by payer, plan, line of business and amount origin (RateMix). */
    rateMix: jsonb('rate_mix'),
    /** What the hospital's cms-hpt.txt says of the file, for a file read through one. */
    sourcePageUrl: text('source_page_url'),
    contactName: text('contact_name'),
    contactEmail: text('contact_email'),
    /** The cms-hpt.txt (path or URL) the file was found through: `ingest --refresh` reads it again. */
    listedIn: text('listed_in'),
    /**
     * For a file downloaded whole from a URL: the validators its server sent with these bytes
     * (ETag, Last-Modified), so the next download of the URL can ask for the file only if it
     * changed (If-None-Match, If-Modified-Since).
     */
    httpEtag: text('http_etag'),
    httpLastModified: text('http_last_modified'),
    /**
     * For a file read by name from a zip archive: its CRC-32 in the archive's directory, which
     * with its compressed size (`bytes`) tells the next ingest, before reading, that it is unchanged.
     */
    zipCrc32: bigint('zip_crc32', { mode: 'number' }),
    /**
     * While the run is loading, how far its read is (FileProgress: bytes read, the file's size
     * when known, records), written every few seconds; null once it ends.
     */
    progress: jsonb('progress'),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    /**
     * Runs like this one (unchanged, or skipped) that came after it and were deleted by the
     * worker's retention job (server/worker/retention.ts): the hospital's page still says how
     * many times the file was read.
     */
    repeatsPruned: integer('repeats_pruned').notNull().default(0),
  },
  (t) => [
    index('mrf_files_hospital_idx').on(t.hospitalId, t.startedAt),
    index('mrf_files_sha_idx').on(t.sha256),
    // A refresh adds a run a day for every file, so the table grows without end; each ingest
    // asks for its source's runs and for runs still loading, and the refresh for files in use.
    // Without these, each such query read the whole table: 105–119 ms at a million runs (ADR
    // 0011, "Keeping files current").
    index('mrf_files_source_idx').on(t.source),
    index('mrf_files_current_idx')
      .on(t.status)
      .where(sql`status IN ('loading', 'loaded')`),
    // The Alaska download asks, on every visit, when a run that read its file last ended.
    index('mrf_files_read_finished_idx')
      .on(t.finishedAt)
      .where(sql`status <> 'unchanged'`),
  ],
);

export const chargeItems = pgTable(
  'charge_items',
  {
    hospitalId: uuid('hospital_id').notNull(),
    itemId: integer('item_id').notNull(),
    mrfFileId: uuid('mrf_file_id').notNull(),
    description: text('description').notNull(),
    setting: text('setting'),
    billingClass: text('billing_class'),
    modifiers: text('modifiers').array().notNull(),
    drugUnit: numeric('drug_unit'),
    drugType: text('drug_type'),
    gross: numeric('gross'),
    discountedCash: numeric('discounted_cash'),
    min: numeric('min'),
    max: numeric('max'),
    notes: text('notes'),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.itemId] })],
);

/** Every code of an item, the search path: code → items of hospitals. */
export const itemCodes = pgTable(
  'item_codes',
  {
    hospitalId: uuid('hospital_id').notNull(),
    itemId: integer('item_id').notNull(),
    codeType: text('code_type').notNull(),
    code: text('code').notNull(),
    category: text('category').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.itemId, t.codeType, t.code] }),
    index('item_codes_code_idx').on(t.code, t.codeType, t.hospitalId),
  ],
);

export const negotiatedRates = pgTable(
  'negotiated_rates',
  {
    hospitalId: uuid('hospital_id').notNull(),
    rateId: integer('rate_id').notNull(),
    itemId: integer('item_id').notNull(),
    /** payer_plans.id: no foreign key, which COPY would check row by row (docs/decisions/0013). */
    planId: integer('plan_id').notNull(),
    methodology: text('methodology'),
    dollar: numeric('dollar'),
    percentage: numeric('percentage'),
    algorithm: text('algorithm'),
    estimatedAmount: numeric('estimated_amount'),
    median: numeric('median'),
    p10: numeric('p10'),
    p90: numeric('p90'),
    count: text('count'),
    notes: text('notes'),
    effectiveAmount: numeric('effective_amount'),
    /** dollar | percentage-of-gross | median | estimated */
    effectiveOrigin: text('effective_origin'),
  },
  // The rates of an item are what every reader asks for; rate_id only orders them.
  (t) => [primaryKey({ columns: [t.hospitalId, t.itemId, t.rateId] })],
);

/** Medicare physician fee schedule (2025): RVUs per code and modifier. Never the CPT descriptions. */
export const medicareRvus = pgTable(
  'medicare_rvus',
  {
    year: integer('year').notNull(),
    hcpcs: text('hcpcs').notNull(),
    modifier: text('modifier').notNull().default(''),
    status: text('status'),
    workRvu: numeric('work_rvu'),
    nonFacilityPeRvu: numeric('non_facility_pe_rvu'),
    facilityPeRvu: numeric('facility_pe_rvu'),
    mpRvu: numeric('mp_rvu'),
    globalDays: text('global_days'),
    conversionFactor: numeric('conversion_factor').notNull(),
    /**
     * "NA" in the file's NA indicator: the service is rarely or never performed in that setting
     * (RVU read-me); the amounts stay as the RVUs give them (migration 0025, ADR 0011).
     */
    nonFacilityNa: boolean('non_facility_na').notNull().default(false),
    facilityNa: boolean('facility_na').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.year, t.hcpcs, t.modifier] })],
);

export const medicareGpcis = pgTable(
  'medicare_gpcis',
  {
    year: integer('year').notNull(),
    carrier: text('carrier').notNull(),
    locality: text('locality').notNull(),
    name: text('name').notNull(),
    workGpci: numeric('work_gpci').notNull(),
    peGpci: numeric('pe_gpci').notNull(),
    mpGpci: numeric('mp_gpci').notNull(),
  },
  (t) => [primaryKey({ columns: [t.year, t.carrier, t.locality] })],
);

/**
 * OPPS payment caps (OPPSCAP file): for the imaging services the Deficit Reduction Act of 2005
 * names, Medicare pays the lesser of the fee schedule amount and this cap, per locality.
 */
export const medicareOppsCaps = pgTable(
  'medicare_opps_caps',
  {
    year: integer('year').notNull(),
    hcpcs: text('hcpcs').notNull(),
    modifier: text('modifier').notNull().default(''),
    carrier: text('carrier').notNull(),
    locality: text('locality').notNull(),
    facilityCap: numeric('facility_cap').notNull(),
    nonFacilityCap: numeric('non_facility_cap').notNull(),
  },
  (t) => [primaryKey({ columns: [t.year, t.hcpcs, t.modifier, t.carrier, t.locality] })],
);

/** ZIP → Medicare carrier and locality (CMS ZIP5 file). */
export const zipLocalities = pgTable('zip_localities', {
  zip: text('zip').primaryKey(),
  stateCode: text('state_code').notNull(),
  carrier: text('carrier').notNull(),
  locality: text('locality').notNull(),
});

/** What a hospital's loaded file offers, computed at each swap so the inventory reads one row. */
export const hospitalSummaries = pgTable('hospital_summaries', {
  hospitalId: uuid('hospital_id').primaryKey(),
  items: integer('items').notNull(),
  rates: integer('rates').notNull(),
  hasCash: boolean('has_cash').notNull(),
  hasCommercial: boolean('has_commercial').notNull(),
  hasMedicare: boolean('has_medicare').notNull(),
  hasInpatient: boolean('has_inpatient').notNull(),
  hasOutpatient: boolean('has_outpatient').notNull(),
  hasDrugs: boolean('has_drugs').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** CMS NADAC weekly prices (National Average Drug Acquisition Cost), for the Rx price table. */
export const nadacPrices = pgTable(
  'nadac_prices',
  {
    ndc: text('ndc').notNull(),
    effectiveDate: date('effective_date').notNull(),
    description: text('description').notNull(),
    perUnit: numeric('per_unit').notNull(),
    pricingUnit: text('pricing_unit'),
    pharmacyType: text('pharmacy_type'),
    otc: boolean('otc'),
    classification: text('classification'),
    asOfDate: date('as_of_date'),
  },
  (t) => [primaryKey({ columns: [t.ndc, t.effectiveDate] })],
);
