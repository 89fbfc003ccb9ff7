import {
  FREE_SEARCH_WINDOW_DAYS,
  SEARCH_MESSAGES,
  formatLongDate,
  freeSearchStatus,
  isNewSearch,
  normaliseEmail,
  type Entitlement,
  type SearchInputs,
} from '@ratelens/core';
import { inTransaction, type Pool, type Queryable } from '@ratelens/db';
import { forbidden } from '../http/errors.ts';

/** After an individual-search subscription lapses, its remaining searches carry forward for a day. */
export const RENEWAL_GRACE_MS = 24 * 3_600_000;

export interface Organisation {
  id: string;
  name: string;
  accountEmail: string;
  employerAccess: boolean;
  ocrAccess: boolean;
  employerOcr: boolean;
}

interface SubscriptionRow {
  id: string;
  remaining: number;
  expiresAt: Date;
  startsAt: Date;
}

/** What the server knows of an account when it decides whether a search may run. */
interface AccountState {
  email: string;
  organisation: Organisation | null;
  active: SubscriptionRow[];
  lapsed: SubscriptionRow | null;
  freeSearchTimes: Date[];
  lastSearch: SearchInputs | null;
}

export type CountedAs = 'free' | 'subscription' | 'employer' | 'repeat';

/** How a search was paid for, and its line in the search log (none for a re-run). */
export interface CountedSearch {
  countedAs: CountedAs;
  logId: string | null;
}

/** Which refusal wording: the standard path names the next date, the custom path the allowance. */
export type SearchPath = 'standard' | 'custom';

/**
 * Search entitlements, computed on the server from the account's organisation, subscriptions and
 * search log (issue 4, point 2). Nothing the client says about its allowance is trusted.
 */
export class Entitlements {
  constructor(private readonly pool: Pool) {}

  /** Everything the decision needs, in one round trip. */
  private async state(db: Queryable, userId: string, now: Date): Promise<AccountState> {
    const { rows } = await db.query<{
      email: string;
      organisation: Organisation | null;
      subscriptions: { id: string; remaining: number; expiresAt: string; startsAt: string }[];
      freeTimes: Date[];
      lastSearch: SearchInputs | null;
    }>({
      name: 'account_search_state',
      text: `SELECT u.email,
              (SELECT json_build_object('id', o.id, 'name', o.name, 'accountEmail', o.account_email,
                        'employerAccess', o.employer_access, 'ocrAccess', o.ocr_access, 'employerOcr', o.employer_ocr)
                 FROM organisations o
                WHERE u.email_confirmed
                  AND (o.account_email = u.email
                   OR EXISTS (SELECT 1 FROM organisation_members m WHERE m.organisation_id = o.id AND m.email = u.email))
                ORDER BY (o.account_email = u.email) DESC LIMIT 1) AS organisation,
              (SELECT coalesce(json_agg(json_build_object('id', s.id, 'remaining', s.remaining_search_count,
                        'expiresAt', s.expires_at, 'startsAt', s.starts_at) ORDER BY s.expires_at), '[]')
                 FROM subscriptions s
                WHERE s.user_id = u.id AND s.kind = 'individual-search'
                  AND s.expires_at > $2::timestamptz - interval '1 day') AS subscriptions,
              (SELECT coalesce(array_agg(l.at), '{}') FROM search_log l
                WHERE l.user_id = u.id AND l.counted_as = 'free'
                  AND l.at > $2::timestamptz - make_interval(days => $3)) AS "freeTimes",
              (SELECT json_build_object('stateCode', l.state_code, 'msaId', l.msa_id, 'code', l.code,
                        'billingClass', l.billing_class)
                 FROM search_log l WHERE l.user_id = u.id ORDER BY l.at DESC LIMIT 1) AS "lastSearch"
         FROM users u WHERE u.id = $1`,
      values: [userId, now, FREE_SEARCH_WINDOW_DAYS],
    });
    const row = rows[0];
    if (!row) throw forbidden('This account no longer exists.');
    const subscriptions: SubscriptionRow[] = row.subscriptions.map((s) => ({
      id: s.id,
      remaining: s.remaining,
      expiresAt: new Date(s.expiresAt),
      startsAt: new Date(s.startsAt),
    }));
    return {
      email: row.email,
      organisation: row.organisation,
      active: subscriptions.filter(
        (s) => s.startsAt <= now && s.expiresAt > now && s.remaining > 0,
      ),
      lapsed: subscriptions.filter((s) => s.expiresAt <= now && s.remaining > 0).at(-1) ?? null,
      freeSearchTimes: row.freeTimes,
      lastSearch: row.lastSearch,
    };
  }

  /** The spec's report-type record for the account (`OobRates/getReportType`). */
  async entitlement(userId: string, now = new Date()): Promise<Entitlement> {
    const account = await this.state(this.pool, userId, now);
    const employer = account.organisation?.employerAccess === true;
    const free = freeSearchStatus(account.freeSearchTimes, now);
    const subscriptionCount = account.active.reduce((sum, s) => sum + s.remaining, 0);
    const searchable = employer || subscriptionCount > 0 || free.searchingStatus === 1;
    const isMember = account.organisation && account.organisation.accountEmail !== account.email;
    const inGrace =
      account.lapsed !== null &&
      now.getTime() - account.lapsed.expiresAt.getTime() < RENEWAL_GRACE_MS;
    return {
      searching_Status: searchable ? 1 : 0,
      next_Search_Date: searchable ? null : (free.nextSearchDate?.toISOString() ?? null),
      individualSubscription: subscriptionCount > 0,
      individualSubscriptionCount: subscriptionCount,
      reportType: employer ? 'employer' : 'individual',
      employer_OCR: account.organisation?.employerOcr ?? false,
      oCR_Access: account.organisation?.ocrAccess ?? false,
      replace_Email: isMember ? (account.organisation?.accountEmail ?? null) : null,
      actual_Email: account.email,
      freeSearchesLeft: free.remaining,
      subscriptionStatus: subscriptionCount > 0 ? 'active' : inGrace ? 'expired' : 'none',
      carryForwardSearches:
        subscriptionCount === 0 && inGrace ? (account.lapsed?.remaining ?? 0) : 0,
    };
  }

  /**
   * Lets a search run or refuses it with the spec's message, and logs it. `named` are the
   * account e-mails the request names (`accout`, `logged_useremail`): each must be the account's
   * own or its employer's. Re-running the previous search (same inputs) costs nothing and is not
   * logged; a new one is taken from the employer's access (unlimited), else an individual
   * subscription (the one expiring first), else the free allowance. For those two the account
   * row is locked, so two concurrent searches cannot both take the last search.
   */
  async authorizeSearch(
    userId: string,
    inputs: SearchInputs,
    path: SearchPath,
    named: readonly (string | null | undefined)[] = [],
    clock: () => Date = () => new Date(),
  ): Promise<CountedSearch> {
    const repeat = { countedAs: 'repeat', logId: null } as const;
    const before = await this.state(this.pool, userId, clock());
    assertOwnAccount(named, before.email, before.organisation?.accountEmail ?? null);
    if (!isNewSearch(before.lastSearch, inputs)) return repeat;
    if (before.organisation?.employerAccess) {
      const logId = await this.log(this.pool, userId, inputs, 'employer', null, clock());
      return { countedAs: 'employer', logId };
    }
    return inTransaction(this.pool, async (client) => {
      await client.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [userId]);
      // The time is read once the lock is held, so a search logged by the holder before us is never "in the future".
      const now = clock();
      const account = await this.state(client, userId, now);
      if (!isNewSearch(account.lastSearch, inputs)) return repeat;
      const subscription = account.active[0];
      if (subscription) {
        await client.query(
          `UPDATE subscriptions SET remaining_search_count = remaining_search_count - 1 WHERE id = $1`,
          [subscription.id],
        );
        const logId = await this.log(client, userId, inputs, 'subscription', subscription.id, now);
        return { countedAs: 'subscription', logId };
      }
      if (freeSearchStatus(account.freeSearchTimes, now).searchingStatus !== 1)
        throw refusal(account, now, path);
      const logId = await this.log(client, userId, inputs, 'free', null, now);
      return { countedAs: 'free', logId };
    });
  }

  /**
   * Gives back a search that found no rate: a free search returns to the allowance, a
   * subscription's to its count. Its log line stays, counted as 'empty', so it is still the
   * account's latest search (re-running it stays free, its summary may be read).
   */
  async refundEmptySearch(userId: string, counted: CountedSearch): Promise<void> {
    if (!counted.logId || (counted.countedAs !== 'free' && counted.countedAs !== 'subscription'))
      return;
    await inTransaction(this.pool, async (client) => {
      await client.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [userId]);
      const { rows } = await client.query<{ subscriptionId: string | null }>(
        `UPDATE search_log SET counted_as = 'empty'
          WHERE id = $1 AND user_id = $2 AND counted_as IN ('free', 'subscription')
          RETURNING subscription_id AS "subscriptionId"`,
        [counted.logId, userId],
      );
      const subscriptionId = rows[0]?.subscriptionId;
      if (subscriptionId)
        await client.query(
          `UPDATE subscriptions SET remaining_search_count = remaining_search_count + 1 WHERE id = $1`,
          [subscriptionId],
        );
    });
  }

  private async log(
    db: Queryable,
    userId: string,
    inputs: SearchInputs,
    countedAs: Exclude<CountedAs, 'repeat'>,
    subscriptionId: string | null,
    at: Date,
  ): Promise<string> {
    const { rows } = await db.query<{ id: string }>({
      name: 'search_log_insert',
      text: `INSERT INTO search_log (user_id, counted_as, subscription_id, state_code, msa_id, code, billing_class, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      values: [
        userId,
        countedAs,
        subscriptionId,
        inputs.stateCode.toUpperCase(),
        inputs.msaId,
        inputs.code.trim().toUpperCase(),
        inputs.billingClass.toLowerCase(),
        at,
      ],
    });
    const row = rows[0];
    if (!row) throw new Error('search_log insert returned no row');
    return row.id;
  }

  /** True when these inputs are the account's latest search (reads that follow a search, such as its summary). */
  async isLatestSearch(userId: string, inputs: SearchInputs): Promise<boolean> {
    const account = await this.state(this.pool, userId, new Date());
    return account.lastSearch !== null && !isNewSearch(account.lastSearch, inputs);
  }
}

/**
 * The account e-mails a request names (`accout`, `email`, `logged_useremail`) must each be the
 * session's own or its employer's (the spec's replace_Email): the session decides, not the body.
 */
export function assertOwnAccount(
  named: readonly (string | null | undefined)[],
  email: string,
  employerEmail: string | null,
): void {
  for (const name of named) {
    if (!name?.trim()) continue;
    const wanted = normaliseEmail(name);
    if (wanted !== email && wanted !== employerEmail)
      throw forbidden('You can search only as your own account.');
  }
}

function refusal(account: AccountState, now: Date, path: SearchPath) {
  if (account.lapsed && now.getTime() - account.lapsed.expiresAt.getTime() < RENEWAL_GRACE_MS)
    return forbidden(SEARCH_MESSAGES.subscriptionExpired(account.lapsed.remaining));
  const next = freeSearchStatus(account.freeSearchTimes, now).nextSearchDate;
  if (path === 'standard' && next)
    return forbidden(SEARCH_MESSAGES.nextEligible(formatLongDate(next)));
  return forbidden(SEARCH_MESSAGES.freeSearchesOver);
}
