import { randomUUID } from 'node:crypto';
import type { LoginResponse } from '@ratelens/core';
import type { PoolClient } from '@ratelens/db';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { seedStatesAndFiles, seededPlans } from '../subscriptions/catalogue-fixtures.ts';
import { authHeaders, signedInUser, useTestApp } from '../test/app.ts';
import {
  addPlan,
  billing,
  card,
  ordersOf,
  paid,
  payCard,
  subscriptionsOf,
  type SubscriptionState,
} from './payment-fixtures.ts';
import { RENEWALS_QUEUE, startWorker } from '../worker/worker.ts';
import { runRenewals } from './renewals.ts';
import { SandboxGateway } from './sandbox-gateway.ts';

const test = useTestApp({ RENEWALS_INTERVAL_MINUTES: '0', PAYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
const pool = () => test.database.connection.pool;
const gateway = () => new SandboxGateway(pool());
const HOUR = 3_600_000;

let plans: Awaited<ReturnType<typeof seededPlans>>;

beforeAll(async () => {
  await seedStatesAndFiles(pool());
  plans = await seededPlans(pool());
});

interface Bought {
  session: LoginResponse;
  subscription: SubscriptionState;
}

async function buy(body: Record<string, unknown>): Promise<Bought> {
  const session = await signedInUser(test.app);
  const response = await payCard(test.app, session, body);
  if (paid(response).orderStatus !== 'paid') {
    throw new Error(`purchase not paid: ${response.body}`);
  }
  const [subscription] = await subscriptionsOf(pool(), session.userID);
  if (!subscription) throw new Error('no subscription');
  return { session, subscription };
}

async function lapse(
  subscriptionId: string,
  change: { expiredHoursAgo: number; remaining?: number; autoRenewal?: boolean },
): Promise<Date> {
  const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 - change.expiredHoursAgo * HOUR);
  await pool().query(
    `UPDATE subscriptions SET expires_at = $2,
            remaining_search_count = coalesce($3, remaining_search_count),
            auto_renewal = coalesce($4, auto_renewal)
      WHERE id = $1`,
    [subscriptionId, expiresAt, change.remaining ?? null, change.autoRenewal ?? null],
  );
  return expiresAt;
}

async function current(subscriptionId: string): Promise<SubscriptionState> {
  const { rows } = await pool().query<SubscriptionState & { userId: string }>(
    `SELECT user_id AS "userId" FROM subscriptions WHERE id = $1`,
    [subscriptionId],
  );
  const all = await subscriptionsOf(pool(), rows[0]?.userId ?? '');
  const found = all.find((s) => s.id === subscriptionId);
  if (!found) throw new Error('subscription vanished');
  return found;
}

function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

const search5 = () => ({ items: [{ subscriptionID: plans.search5, state: '' }] });

/** An order at the gateway right now: pending, without a reply. Answers its id. */
async function inFlightOrder(userId: string, kind: string, scope: string): Promise<string> {
  const key = `in-flight-${randomUUID().slice(0, 8)}`;
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO orders (user_id, kind, idempotency_scope, idempotency_key, request_hash, method,
            amount_cents, email, gateway, invoice_number)
     VALUES ($1, $2, $3, $4, $4, 'card', 999, 'x@example.com', 'sandbox', $4) RETURNING id`,
    [userId, kind, scope, key],
  );
  return rows[0]?.id ?? '';
}

/** A job log that keeps its warnings as `message subscriptionId: reason`. */
function keptLog() {
  const lines: string[] = [];
  const log = {
    info: () => {},
    warn: (details: object, message: string) => {
      const { subscriptionId, reason } = details as { subscriptionId?: string; reason?: string };
      lines.push(`${message} ${subscriptionId}: ${reason}`);
    },
    error: () => {},
  };
  return { log, lines };
}

describe('the renewal job', () => {
  it('charges the stored profile of an auto-renewing subscription and extends it, carrying remaining searches forward within the grace', async () => {
    const { subscription } = await buy(search5());
    expect(subscription.autoRenewal).toBe(true);
    const expiredAt = await lapse(subscription.id, { expiredHoursAgo: 2, remaining: 3 });

    const summary = await runRenewals(pool(), gateway());
    expect(summary.renewals.paid).toBeGreaterThanOrEqual(1);
    const renewed = await current(subscription.id);
    expect(renewed.expiresAt.toISOString()).toBe(addMonths(expiredAt, 12).toISOString());
    expect(renewed).toMatchObject({ remaining: 8, total: 8 });
    const orders = await ordersOf(pool(), `renewal:${subscription.id}`);
    expect(orders).toEqual([
      expect.objectContaining({ kind: 'renewal', status: 'paid', amountCents: 999 }),
    ]);

    await runRenewals(pool(), gateway());
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toHaveLength(1);
  });

  it('lets a subscription without auto-renewal expire: its searches carry for 24 hours, then lapse', async () => {
    const { subscription } = await buy(search5());
    await lapse(subscription.id, { expiredHoursAgo: 2, remaining: 3, autoRenewal: false });

    await runRenewals(pool(), gateway());
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([]);
    expect((await current(subscription.id)).remaining).toBe(3);

    await runRenewals(pool(), gateway(), new Date(Date.now() + 21 * HOUR));
    expect((await current(subscription.id)).remaining).toBe(3);

    const summary = await runRenewals(pool(), gateway(), new Date(Date.now() + 23 * HOUR));
    expect(summary.expired).toBeGreaterThanOrEqual(1);
    expect((await current(subscription.id)).remaining).toBe(0);
  });

  it('carries the remaining searches into a new pack bought within the grace, and stops renewing the old one', async () => {
    const { session, subscription } = await buy(search5());
    await lapse(subscription.id, { expiredHoursAgo: 3, remaining: 2, autoRenewal: false });
    const again = await payCard(test.app, session, {
      items: [{ subscriptionID: plans.search15, state: '' }],
    });
    expect(paid(again).orderStatus).toBe('paid');
    const [old, fresh] = await subscriptionsOf(pool(), session.userID);
    expect(old).toMatchObject({ remaining: 0, autoRenewal: false });
    expect(fresh).toMatchObject({ remaining: 17, total: 17 });
  });

  it('does not renew a subscription expired beyond the grace, nor one without a stored profile', async () => {
    const late = await buy(search5());
    await lapse(late.subscription.id, { expiredHoursAgo: 25, remaining: 3 });
    const noProfile = await buy(search5());
    await pool().query(`UPDATE subscriptions SET payment_profile_id = NULL WHERE id = $1`, [
      noProfile.subscription.id,
    ]);
    await lapse(noProfile.subscription.id, { expiredHoursAgo: 1 });

    await runRenewals(pool(), gateway());
    expect(await ordersOf(pool(), `renewal:${late.subscription.id}`)).toEqual([]);
    expect(await ordersOf(pool(), `renewal:${noProfile.subscription.id}`)).toEqual([]);
    expect((await current(late.subscription.id)).remaining).toBe(0);
  });

  it('leaves a subscription expired when its renewal is declined, and does not try that expiry again', async () => {
    const plan = await addPlan(pool(), { title: 'Renewal Decline Test', priceCents: 999 });
    // The stored card is the sandbox's trigger card: at $2.00 it answers reason code 2, declined.
    const { subscription } = await buy({
      items: [{ subscriptionID: plan, state: '' }],
      paymentDetails: card('4222222222222'),
    });
    await pool().query(`UPDATE plans SET price_cents = 200 WHERE id = $1`, [plan]);
    const expiredAt = await lapse(subscription.id, { expiredHoursAgo: 1 });

    await runRenewals(pool(), gateway());
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([
      expect.objectContaining({ status: 'declined', amountCents: 200 }),
    ]);
    expect((await current(subscription.id)).expiresAt.toISOString()).toBe(expiredAt.toISOString());

    await runRenewals(pool(), gateway(), new Date(Date.now() + HOUR));
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toHaveLength(1);
  });

  it('settles a renewal whose answer was lost on a later run', async () => {
    // Bought with the sandbox's lost-answer ZIP: reconciliation finds the charge and its profile.
    const session = await signedInUser(test.app);
    const bought = await payCard(test.app, session, {
      ...search5(),
      billingAddress: billing('46290'),
    });
    expect(bought.statusCode).toBe(504);
    await runRenewals(pool(), gateway());
    const [subscription] = await subscriptionsOf(pool(), session.userID);
    if (!subscription) throw new Error('the reconciled purchase made no subscription');
    expect(subscription.paymentProfileId).not.toBeNull();

    const expiredAt = await lapse(subscription.id, { expiredHoursAgo: 1, remaining: 1 });
    const first = await runRenewals(pool(), gateway());
    expect(first.renewals.pending).toBeGreaterThanOrEqual(1);
    expect((await current(subscription.id)).expiresAt.toISOString()).toBe(expiredAt.toISOString());

    await runRenewals(pool(), gateway(), new Date(Date.now() + 2 * HOUR));
    const renewed = await current(subscription.id);
    expect(renewed.expiresAt.toISOString()).toBe(addMonths(expiredAt, 12).toISOString());
    expect(renewed.remaining).toBe(6);
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([
      expect.objectContaining({ status: 'paid' }),
    ]);
  });

  it('refuses a checkout of the account while a renewal of it is being charged', async () => {
    const { session, subscription } = await buy(search5());
    await lapse(subscription.id, { expiredHoursAgo: 1 });
    // The renewal's charge at the gateway right now.
    await inFlightOrder(session.userID, 'renewal', `renewal:${subscription.id}`);
    // Bought again meanwhile, the plan would be paid twice: once renewed, once new.
    const again = await payCard(test.app, session, search5());
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(
      'A renewal of your subscription is being charged to your saved payment method. Please check your profile in a few minutes before paying again.',
    );
    expect(await subscriptionsOf(pool(), session.userID)).toHaveLength(1);
  });

  it('looks up a renewal whose answer was lost before a checkout of the account', async () => {
    // The stored profile loses every answer (the sandbox's lost-answer ZIP).
    const session = await signedInUser(test.app);
    await payCard(test.app, session, { ...search5(), billingAddress: billing('46290') });
    await runRenewals(pool(), gateway());
    const [subscription] = await subscriptionsOf(pool(), session.userID);
    if (!subscription) throw new Error('the reconciled purchase made no subscription');
    await lapse(subscription.id, { expiredHoursAgo: 1 });
    expect((await runRenewals(pool(), gateway())).renewals.pending).toBe(1);

    // The checkout finds the renewal paid, not pending until the job's next run: the plan is
    // held, so buying it again is refused as such.
    const again = await payCard(test.app, session, search5());
    expect(again.statusCode).toBe(400);
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([
      expect.objectContaining({ status: 'paid' }),
    ]);
    expect(await subscriptionsOf(pool(), session.userID)).toHaveLength(1);
  });

  it('does not renew while a checkout of the account is being paid: the next run does', async () => {
    const { session, subscription } = await buy(search5());
    await lapse(subscription.id, { expiredHoursAgo: 1 });
    // A checkout whose card is at the gateway right now.
    const inFlight = await inFlightOrder(session.userID, 'subscription', `user:${session.userID}`);
    const { log, lines } = keptLog();
    await runRenewals(pool(), gateway(), new Date(), { log });
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([]);
    expect(lines).toContain(
      `subscription not renewed ${subscription.id}: a checkout of the account is being paid; the next run tries again`,
    );

    await pool().query(`UPDATE orders SET status = 'failed' WHERE id = $1`, [inFlight]);
    await runRenewals(pool(), gateway());
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([
      expect.objectContaining({ status: 'paid' }),
    ]);
  });

  it('does not renew a subscription whose auto-renewal is turned off while the run reaches it', async () => {
    const { session, subscription } = await buy(search5());
    await lapse(subscription.id, { expiredHoursAgo: 1 });
    // The run waits at the account's lock (another renewal of the account, a checkout) while
    // the customer turns auto-renewal off.
    const holder = await pool().connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `user:${session.userID}`,
      ]);
      const { log, lines } = keptLog();
      const run = runRenewals(pool(), gateway(), new Date(), { log });
      await vi.waitFor(
        async () => {
          const { rowCount } = await pool().query(
            `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
          );
          expect(rowCount).toBe(1);
        },
        { timeout: 5000 },
      );
      const off = await test.app.inject({
        method: 'POST',
        url: '/api/subscription/updateAutoRenewal',
        headers: authHeaders(session),
        payload: {
          userID: session.userID,
          mySubscriptionID: subscription.id,
          autoRenewStatus: false,
        },
      });
      expect(off.statusCode).toBe(200);
      await holder.query('COMMIT');
      await run;
      expect(lines).toContain(
        `subscription not renewed ${subscription.id}: auto-renewal was turned off, or the subscription was extended`,
      );
    } finally {
      holder.release();
    }
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([]);
  });

  it('charges a due installment with the stored profile, once', async () => {
    const { subscription } = await buy({
      items: [{ subscriptionID: plans.stateAnnual, state: 'AL', IsInstalmentPayment: true }],
    });
    await pool().query(
      `UPDATE installments SET due_on = (now() AT TIME ZONE 'UTC')::date WHERE subscription_id = $1 AND seq = 2`,
      [subscription.id],
    );
    await runRenewals(pool(), gateway());
    await runRenewals(pool(), gateway());
    const { rows } = await pool().query<{ seq: number; status: string; orderId: string | null }>(
      `SELECT seq, status, order_id AS "orderId" FROM installments WHERE subscription_id = $1 AND seq <= 3 ORDER BY seq`,
      [subscription.id],
    );
    expect(rows.map((r) => [r.seq, r.status])).toEqual([
      [1, 'paid'],
      [2, 'paid'],
      [3, 'due'],
    ]);
    const installmentId = (
      await pool().query<{ id: string }>(
        `SELECT id FROM installments WHERE subscription_id = $1 AND seq = 2`,
        [subscription.id],
      )
    ).rows[0]?.id;
    expect(await ordersOf(pool(), `installment:${installmentId}`)).toEqual([
      expect.objectContaining({ kind: 'installment', status: 'paid', amountCents: 1125 }),
    ]);
  });

  it('renews an installment subscription with a new schedule of 12 from its expiry', async () => {
    const { subscription } = await buy({
      items: [{ subscriptionID: plans.stateAnnual, state: 'AL', IsInstalmentPayment: true }],
    });
    await pool().query(`UPDATE installments SET status = 'paid' WHERE subscription_id = $1`, [
      subscription.id,
    ]);
    await lapse(subscription.id, { expiredHoursAgo: 1 });
    await runRenewals(pool(), gateway());
    const { rows } = await pool().query<{ seq: number; status: string }>(
      `SELECT seq, status FROM installments WHERE subscription_id = $1 AND seq > 12 ORDER BY seq`,
      [subscription.id],
    );
    expect(rows).toHaveLength(12);
    expect(rows[0]).toEqual({ seq: 13, status: 'paid' });
    expect(rows.slice(1).every((r) => r.status === 'due')).toBe(true);
  });

  it("runs as the background worker's job, once across two workers sharing the database", async () => {
    const { subscription } = await buy(search5());
    await lapse(subscription.id, { expiredHoursAgo: 1 });
    const lines: string[] = [];
    const log = {
      info: (line: string) => lines.push(line),
      warn: (line: string) => lines.push(line),
      error: (line: string) => lines.push(`error: ${line}`),
    };
    const workers = await Promise.all(
      [1, 2].map(() =>
        startWorker({
          pool: pool(),
          log,
          refreshSchedule: 'off',
          pollingIntervalSeconds: 0.5,
          renewals: { gateway: gateway(), schedule: '*/15 * * * *', gatewayTimeoutMs: 30_000 },
        }),
      ),
    );
    try {
      // The schedule is kept once, as cron in UTC.
      const { rows: schedules } = await pool().query<{ cron: string; timezone: string }>(
        `SELECT cron, timezone FROM pgboss.schedule WHERE name = $1`,
        [RENEWALS_QUEUE],
      );
      expect(schedules).toEqual([{ cron: '*/15 * * * *', timezone: 'UTC' }]);
      // What the schedule sends when it fires, twice: the second waits, or is refused.
      const boss = workers[0]?.boss;
      const first = (await boss?.send(RENEWALS_QUEUE, {})) ?? '';
      await boss?.send(RENEWALS_QUEUE, {});
      const deadline = Date.now() + 20_000;
      let job = await boss?.getJobById<object>(RENEWALS_QUEUE, first);
      while (Date.now() < deadline && job?.state !== 'completed' && job?.state !== 'failed') {
        await new Promise((resolve) => setTimeout(resolve, 100));
        job = await boss?.getJobById<object>(RENEWALS_QUEUE, first);
      }
      expect(job?.state, JSON.stringify(job?.output)).toBe('completed');
      expect(job?.output).toMatchObject({ renewals: { paid: 1 } });
      await expect
        .poll(
          async () =>
            (
              await pool().query<{ waiting: number }>(
                `SELECT count(*)::int AS waiting FROM pgboss.job WHERE name = $1 AND state < 'completed'`,
                [RENEWALS_QUEUE],
              )
            ).rows[0]?.waiting,
        )
        .toBe(0);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([
      expect.objectContaining({ status: 'paid' }),
    ]);
    expect(lines.some((line) => line.startsWith('Renewals: renewal job ran {'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('error:'))).toEqual([]);
  }, 60_000);
});

describe('the renewal job, when the worker stops during its run', () => {
  it('starts no further charge: each subscription is renewed or left as it was, and the stop is prompt', async () => {
    const first = await buy(search5());
    const second = await buy(search5());
    const third = await buy(search5());
    // Renewed in the order they expired: the first, the second, the third.
    await lapse(first.subscription.id, { expiredHoursAgo: 3 });
    await lapse(second.subscription.id, { expiredHoursAgo: 2 });
    const thirdExpiry = await lapse(third.subscription.id, { expiredHoursAgo: 1 });
    const holders: PoolClient[] = [];
    /** A checkout of the account, which holds the account's lock while its card is charged. */
    const checkout = async ({ session }: Bought) => {
      const holder = await pool().connect();
      holders.push(holder);
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `user:${session.userID}`,
      ]);
      return holder;
    };
    try {
      // They hold the run at the second (as a slow gateway would) and would hold it at the third.
      const secondCheckout = await checkout(second);
      const thirdCheckout = await checkout(third);
      const lines: string[] = [];
      const worker = await startWorker({
        pool: pool(),
        log: { info: (line) => lines.push(line), warn: () => {}, error: () => {} },
        refreshSchedule: 'off',
        pollingIntervalSeconds: 0.5,
        renewals: { gateway: gateway(), schedule: 'off', gatewayTimeoutMs: 30_000 },
      });
      try {
        await worker.boss.send(RENEWALS_QUEUE, {});
        await vi.waitFor(
          async () => {
            const { rowCount } = await pool().query(
              `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
            );
            expect(rowCount).toBe(1);
          },
          { timeout: 10_000 },
        );
        const stopping = performance.now();
        const stopped = worker.stop();
        // The second's checkout ends: its renewal, the charge at hand, goes on and ends.
        await secondCheckout.query('COMMIT');
        await stopped;
        // Not the five seconds a stop waits for a job that goes on to the third (with room for a
        // busy machine).
        expect(performance.now() - stopping).toBeLessThan(4500);
        // Its summary says so: what it left is not what it found done.
        expect(lines).toContainEqual(
          expect.stringMatching(
            /^Renewals: renewal job stopped early \(the worker is stopping\), the rest is for the next run \{.*"stoppedBecause":"the worker is stopping"\}\}$/,
          ),
        );
      } finally {
        await worker.stop();
      }
      // Free to go on, a run that had not stopped would renew the third now.
      await thirdCheckout.query('COMMIT');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const { subscription } of [first, second])
        expect(await ordersOf(pool(), `renewal:${subscription.id}`)).toEqual([
          expect.objectContaining({ status: 'paid' }),
        ]);
      expect(await ordersOf(pool(), `renewal:${third.subscription.id}`)).toEqual([]);
      expect((await current(third.subscription.id)).expiresAt).toEqual(thirdExpiry);
    } finally {
      for (const holder of holders) {
        await holder.query('ROLLBACK');
        holder.release();
      }
    }
  }, 60_000);
});
