import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './schema.ts';
import { subscriptions } from './schema-search.ts';

/*
 * Subscriptions and payments (issue 5): the catalogue an admin manages (plans, custom offers,
 * coupons), orders with their items and idempotency keys, installment schedules, stored gateway
 * profiles for renewals (never card data), donation one-time codes and plan-page leads.
 * Money is integer cents throughout (docs/decisions/0017-subscriptions-and-payments.md).
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * A plan of the catalogue: the spec's Subscription. State plans are priced per file (the total is
 * the per-file price × the files loaded for the chosen state); national plans have one price.
 */
export const plans = pgTable('plans', {
  /** The spec's subscriptionID. */
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  /** Annual | Monthly | Individual Search: coupons apply to Annual only. */
  subscriptionType: text('subscription_type').notNull(),
  /** State (one state's files) | National (individual-search plans) | All States (negotiable tile). */
  accessType: text('access_type').notNull(),
  /** State plans: price per file; national plans: the price. */
  priceCents: cents('price_cents').notNull(),
  /** Searches granted by an individual-search plan; null otherwise. */
  searchCount: integer('search_count'),
  priceDescription: text('price_description').notNull().default(''),
  /** Offered as Pay Once or Via 12 Months Installment. */
  installmentEligible: boolean('installment_eligible').notNull().default(false),
  /** Monthly maintenance fee added to each installment (pay-once is $0). */
  maintenanceFeeCents: cents('maintenance_fee_cents').notNull().default(0),
  /** The all-states tile: $0, 'Negotiable', not sold through checkout. */
  negotiable: boolean('negotiable').notNull().default(false),
  includesDataFeed: boolean('includes_data_feed').notNull().default(false),
  termMonths: integer('term_months').notNull().default(12),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

/** A price offered to one account for one plan (the spec's 'Customized Offer For You'). */
export const customOffers = pgTable(
  'custom_offers',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    /** The state the offer is for; null for a national plan. */
    stateCode: text('state_code'),
    /** The offered total price. */
    priceCents: cents('price_cents').notNull(),
    note: text('note').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('custom_offers_user_idx').on(t.userId)],
);

export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    /** Stored upper-case; looked up case-insensitively. */
    code: text('code').notNull(),
    /** Whole percent off the total price of annual items, 1–100. */
    percent: integer('percent').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    validTo: timestamp('valid_to', { withTimezone: true }),
    /** Paid orders that may use it in all; null is unlimited. */
    maxUses: integer('max_uses'),
    /** Paid orders one account may use it on; null is unlimited. */
    maxUsesPerUser: integer('max_uses_per_user'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('coupons_code_key').on(t.code)],
);

/**
 * One payment attempt: a checkout, a donation, an installment or a renewal charge. The
 * idempotency key is unique per scope (an account, or a donor's e-mail), so a repeated request
 * finds the first order and returns its result instead of charging again.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** subscription | donation | installment | renewal */
    kind: text('kind').notNull(),
    /** `user:{id}` or `donation:{email}`. */
    idempotencyScope: text('idempotency_scope').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the priced request: the same key with a different order is refused. */
    requestHash: text('request_hash').notNull(),
    /** pending | paid | declined | failed */
    status: text('status').notNull().default('pending'),
    /** card | echeck | profile */
    method: text('method').notNull(),
    amountCents: cents('amount_cents').notNull(),
    couponId: integer('coupon_id').references(() => coupons.id),
    email: text('email').notNull(),
    /** Card brand or 'eCheck'; last four digits of the card or account. Nothing more is kept. */
    accountType: text('account_type'),
    last4: text('last4'),
    gateway: text('gateway').notNull(),
    /** The gateway's invoice number for this order (reconciliation looks it up after a timeout). */
    invoiceNumber: text('invoice_number').notNull(),
    transactionId: text('transaction_id'),
    /** The Authorize.Net-shaped answer the client received (no card or account data). */
    response: jsonb('response'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_idempotency_key').on(t.idempotencyScope, t.idempotencyKey),
    uniqueIndex('orders_invoice_key').on(t.invoiceNumber),
    index('orders_user_idx').on(t.userId, t.createdAt),
    index('orders_pending_idx')
      .on(t.createdAt)
      .where(sql`status = 'pending'`),
  ],
);

/** A priced line of a subscription order, as the server computed it from the catalogue. */
export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    customOfferId: integer('custom_offer_id').references(() => customOffers.id),
    stateCode: text('state_code'),
    installment: boolean('installment').notNull(),
    fileCount: integer('file_count').notNull(),
    unitPriceCents: cents('unit_price_cents').notNull(),
    totalPriceCents: cents('total_price_cents').notNull(),
    discountCents: cents('discount_cents').notNull(),
    finalPriceCents: cents('final_price_cents').notNull(),
    installmentCents: cents('installment_cents').notNull(),
    maintenanceCents: cents('maintenance_cents').notNull(),
    dueTodayCents: cents('due_today_cents').notNull(),
    /** The subscription this line activated (or renewed). */
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [index('order_items_order_idx').on(t.orderId)],
);

/** A stored gateway customer/payment profile used for renewals and installments: no card data. */
export const paymentProfiles = pgTable(
  'payment_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gateway: text('gateway').notNull(),
    customerProfileId: text('customer_profile_id').notNull(),
    paymentProfileId: text('payment_profile_id').notNull(),
    accountType: text('account_type').notNull(),
    last4: text('last4').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payment_profiles_user_idx').on(t.userId)],
);

/** The 12 monthly payments of an installment subscription (the first is paid at checkout). */
export const installments = pgTable(
  'installments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    /** due | paid | failed */
    status: text('status').notNull().default('due'),
    orderId: uuid('order_id').references(() => orders.id),
    attempts: integer('attempts').notNull().default(0),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('installments_seq_key').on(t.subscriptionId, t.seq),
    index('installments_due_idx').on(t.dueOn, t.status),
  ],
);

/** Donation one-time codes: hashed, expiring, single-use, locked after 5 wrong tries. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** After a successful verify: SHA-256 of the donation token the donor's payment must carry. */
    donationTokenHash: text('donation_token_hash'),
    donationTokenExpiresAt: timestamp('donation_token_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('otp_codes_email_idx').on(t.email, t.createdAt),
    uniqueIndex('otp_codes_donation_token_key').on(t.donationTokenHash),
  ],
);

/** Names and e-mails left on the public plans page (`master/subscriptionViewMailSend`). */
export const planLeads = pgTable('plan_leads', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  createdAt: createdAt(),
});

/**
 * The books of the `sandbox` payment gateway (PAYMENT_GATEWAY=sandbox, the default): the
 * transactions and customer profiles it answered for, so that reconciliation can look an invoice
 * up after a timeout and renewals can charge a stored profile across restarts. It plays the part
 * of Authorize.Net's own records and holds what those show a merchant: last four digits, brand,
 * amounts, the billing ZIP; never a card or account number.
 */
export const sandboxLedger = pgTable(
  'sandbox_ledger',
  {
    /** The transaction id, or the customer profile id. */
    id: text('id').primaryKey(),
    /** transaction | profile */
    kind: text('kind').notNull(),
    invoiceNumber: text('invoice_number'),
    record: jsonb('record').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_ledger_invoice_idx').on(t.invoiceNumber)],
);
