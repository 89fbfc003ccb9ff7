import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

/*
 * Rate search (issue 4): employer organisations and their members, individual-search
 * subscriptions (issue 5 adds the catalogue and payments around them), the search log the free
 * allowance is computed from, settings an admin can change, and texted PDF reports.
 */

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** An employer (or benefit company) whose members search as its account. Managed by an admin. */
export const organisations = pgTable(
  'organisations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The employer's account e-mail: members' searches are made as it (the spec's replace_Email). */
    accountEmail: text('account_email').notNull(),
    employerAccess: boolean('employer_access').notNull().default(true),
    ocrAccess: boolean('ocr_access').notNull().default(false),
    employerOcr: boolean('employer_ocr').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organisations_account_email_key').on(t.accountEmail)],
);

/** Member e-mails of an organisation (lower-cased); a member need not have signed up yet. */
export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organisation_members_email_key').on(t.email)],
);

/**
 * A subscription of an account. Issue 4 reads the individual-search kind (counted searches);
 * issue 5 adds the state kinds, the catalogue, payments and renewal.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** individual-search | state */
    kind: text('kind').notNull(),
    stateCode: text('state_code'),
    subscriptionType: text('subscription_type').notNull(),
    totalSearchCount: integer('total_search_count').notNull().default(0),
    remainingSearchCount: integer('remaining_search_count').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    autoRenewal: boolean('auto_renewal').notNull().default(false),
    /** The catalogue plan bought (plans.id, issue 5); null for subscriptions made before the catalogue. */
    planId: integer('plan_id'),
    /** Paid in 12 monthly installments (schedule in `installments`). */
    installment: boolean('installment').notNull().default(false),
    /** The stored gateway profile renewals and installments charge (payment_profiles.id). */
    paymentProfileId: uuid('payment_profile_id'),
    createdAt: createdAt(),
  },
  (t) => [index('subscriptions_user_idx').on(t.userId, t.expiresAt)],
);

/** Every search the server ran for an account, counted or not: the allowance is computed from it. */
export const searchLog = pgTable(
  'search_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * free | subscription | employer: what paid for the search (re-running the latest search is not
     * logged); empty: a free or subscription search that found no rate, given back.
     */
    countedAs: text('counted_as').notNull(),
    subscriptionId: uuid('subscription_id'),
    stateCode: text('state_code').notNull(),
    msaId: text('msa_id').notNull(),
    code: text('code').notNull(),
    billingClass: text('billing_class').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('search_log_user_idx').on(t.userId, t.at)],
);

/** Settings an admin can change, one JSON value per key (e.g. plan-design). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

/** A rendered PDF report behind an unguessable, expiring link (the texted report). */
export const reports = pgTable(
  'reports',
  {
    /** SHA-256 of the link's token: the token itself is only in the link. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    pdf: bytea('pdf').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('reports_expires_idx').on(t.expiresAt),
    // An account's reports of the last day (TEXT_REPORTS_PER_USER_PER_DAY), and its deletion.
    index('reports_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * The codes a state's part of a metro area's hospitals publish, one row per code, for the code search box:
 * rebuilt for an area when its hospitals' data changed (hospital_summaries.updated_at).
 */
export const areaCodes = pgTable(
  'area_codes',
  {
    stateCode: text('state_code').notNull(),
    cbsaCode: text('cbsa_code').notNull(),
    codeType: text('code_type').notNull(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    hospitals: integer('hospitals').notNull(),
  },
  (t) => [uniqueIndex('area_codes_key').on(t.stateCode, t.cbsaCode, t.code, t.codeType)],
);

/** When each area's codes were last built, and from which state of its hospitals' data. */
export const areaCodeBuilds = pgTable(
  'area_code_builds',
  {
    stateCode: text('state_code').notNull(),
    cbsaCode: text('cbsa_code').notNull(),
    dataStamp: text('data_stamp').notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.stateCode, t.cbsaCode] })],
);
