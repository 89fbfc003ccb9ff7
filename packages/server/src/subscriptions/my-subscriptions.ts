import { autoRenewalMessage, type SubscriptionCard } from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import type { AuthContext } from '../auth/auth-service.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { RENEWAL_GRACE_MS } from '../oobrates/entitlements.ts';
import { assertOwnUserId } from './catalogue.ts';

export const NO_PAYMENT_METHOD_MESSAGE =
  'Auto-renewal needs a saved payment method. It is saved when you pay for a subscription by card or echeck.';

interface CardRow {
  id: string;
  userId: string;
  paymentProfileId: string | null;
  kind: string;
  stateName: string | null;
  stateCode: string | null;
  subscriptionType: string;
  title: string | null;
  totalSearchCount: number;
  remainingSearchCount: number;
  expiresAt: Date;
  autoRenewal: boolean;
  installment: boolean;
  accountType: string | null;
  last4: string | null;
}

const CARD_SELECT = `
  SELECT s.id, s.user_id AS "userId", s.payment_profile_id AS "paymentProfileId", s.kind,
         st.name AS "stateName", s.state_code AS "stateCode",
         coalesce(p.subscription_type, s.subscription_type) AS "subscriptionType", p.title,
         s.total_search_count AS "totalSearchCount", s.remaining_search_count AS "remainingSearchCount",
         s.expires_at AS "expiresAt", s.auto_renewal AS "autoRenewal", s.installment,
         pp.account_type AS "accountType", pp.last4
    FROM subscriptions s
    LEFT JOIN plans p ON p.id = s.plan_id
    LEFT JOIN states st ON st.code = s.state_code
    LEFT JOIN payment_profiles pp ON pp.id = s.payment_profile_id`;

/** The state a state-kind subscription covers; one without a state covers them all. */
const stateOf = (row: CardRow) => row.stateName ?? row.stateCode ?? 'All States';

/** What the auto-renewal message calls the subscription: 'Alabama (Annual)' or 'Individual Search'. */
function subjectOf(row: CardRow): string {
  return row.kind === 'individual-search'
    ? 'Individual Search'
    : `${stateOf(row)} (${row.subscriptionType})`;
}

function cardOf(row: CardRow): SubscriptionCard {
  const individual = row.kind === 'individual-search';
  return {
    state: individual ? null : stateOf(row),
    individualSearch: individual,
    subscriptiontype: row.subscriptionType,
    subscriptionTitle: row.title ?? subjectOf(row),
    expireDate: row.expiresAt.toISOString(),
    totalSearchCount: row.totalSearchCount,
    remaningSearchCount: row.remainingSearchCount,
    mySubscriptionID: row.id,
    autoRenewal: row.autoRenewal,
    installment: row.installment,
    paymentMethod: row.accountType && row.last4 ? `${row.accountType} ending ${row.last4}` : null,
  };
}

/** An account's own subscriptions on the profile (search-and-accounts §2 "Profile", §4 "Auto-renew toggle"). */
export class MySubscriptions {
  constructor(private readonly pool: Pool) {}

  /**
   * Active subscriptions and those lapsed within the renewal grace (24 hours, while their
   * remaining searches still carry forward), soonest expiry first.
   */
  async cards(
    auth: AuthContext,
    userId: string,
    now: Date = new Date(),
  ): Promise<SubscriptionCard[]> {
    assertOwnUserId(auth, userId);
    const { rows } = await this.pool.query<CardRow>(
      `${CARD_SELECT} WHERE s.user_id = $1 AND s.expires_at > $2 ORDER BY s.expires_at, s.created_at`,
      [userId, new Date(now.getTime() - RENEWAL_GRACE_MS)],
    );
    return rows.map(cardOf);
  }

  /**
   * Turns auto-renewal on or off for one of the account's subscriptions. On needs the stored
   * gateway profile the renewal will charge; without one the answer says so and nothing changes.
   */
  async setAutoRenewal(
    auth: AuthContext,
    input: { userID: string; mySubscriptionID: string; autoRenewStatus: boolean },
    now: Date = new Date(),
  ): Promise<{ status: boolean; message: string }> {
    assertOwnUserId(auth, input.userID);
    const { rows } = await this.pool.query<CardRow>(`${CARD_SELECT} WHERE s.id = $1`, [
      input.mySubscriptionID,
    ]);
    const row = rows[0];
    if (!row) throw notFound('No subscription has this id.');
    if (row.userId !== auth.userId)
      throw forbidden('This subscription belongs to another account.');
    if (row.expiresAt.getTime() <= now.getTime() - RENEWAL_GRACE_MS)
      throw badRequest(
        'This subscription has expired. Please buy it again from the Subscription page.',
      );
    if (input.autoRenewStatus && !row.paymentProfileId)
      return { status: false, message: NO_PAYMENT_METHOD_MESSAGE };
    await this.pool.query(`UPDATE subscriptions SET auto_renewal = $2 WHERE id = $1`, [
      row.id,
      input.autoRenewStatus,
    ]);
    return { status: true, message: autoRenewalMessage(subjectOf(row), input.autoRenewStatus) };
  }
}
