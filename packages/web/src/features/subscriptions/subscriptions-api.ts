import {
  CheckoutFlagSchema,
  CouponListSchema,
  ResultSchema,
  StatusMessageSchema,
  SubscriptionCardListSchema,
  SubscriptionListSchema,
  SubscriptionSchema,
  type Subscription,
  type SubscriptionCard,
} from '@ratelens/core';
import { authedRequest } from '../auth/api-client.ts';
import { requestJson, withQuery } from '../../shared/http.ts';
import type { CartCoupon } from './cart.ts';

/**
 * The catalogue and account calls of issue 5 (subscriptions-and-payments §7; search-and-accounts
 * §7 "subscription/…"). Custom offers, the checkout check, coupons and the profile's cards carry
 * the session; the tiles, one plan by id and the plans-page lead form are public.
 */

/** `GET master/getsubscription?stateId=`: every offered plan's tile for the state (public). */
export async function getPlans(stateId: number, signal?: AbortSignal): Promise<Subscription[]> {
  const list = await requestJson(
    withQuery('/api/master/getsubscription', { stateId: String(stateId) }),
    { schema: SubscriptionListSchema, signal },
  );
  return list.data;
}

/** `GET Master/getsubscriptionbyid?stateId=&subscriptionid=`: one plan's tile for the state (public). */
export function getPlan(
  stateId: number,
  subscriptionId: number,
  signal?: AbortSignal,
): Promise<Subscription> {
  return requestJson(
    withQuery('/api/Master/getsubscriptionbyid', {
      stateId: String(stateId),
      subscriptionid: String(subscriptionId),
    }),
    { schema: SubscriptionSchema, signal },
  );
}

/** `POST Master/getCustomsubscriptionbyid?userID=&StateId=`: offers made to this account. */
export async function getCustomOffers(
  userID: string,
  stateId: number,
  signal?: AbortSignal,
): Promise<Subscription[]> {
  const list = await authedRequest(
    withQuery('/api/Master/getCustomsubscriptionbyid', { userID, StateId: String(stateId) }),
    { method: 'POST', schema: SubscriptionListSchema, signal },
  );
  return list.data;
}

/**
 * `GET Subscription/getcheckoutflag?userId=&subscriptionId=&state=`: true when the account may
 * buy the plan (for the state; empty for a national plan).
 */
export async function canBuy(userId: string, plan: Subscription): Promise<boolean> {
  const flag = await authedRequest(
    withQuery('/api/Subscription/getcheckoutflag', {
      userId,
      subscriptionId: String(plan.subscriptionID),
      state: plan.stateCode ?? '',
    }),
    // A plan that cannot be bought for this state (no files yet) is a 400 with the reason.
    { schema: CheckoutFlagSchema, keepSessionOn: [400] },
  );
  return flag === 1;
}

/** `GET Master/getallcoupons?cupon=`: the coupon when this account may use it now, else null. */
export async function findCoupon(code: string): Promise<CartCoupon | null> {
  const list = await authedRequest(withQuery('/api/Master/getallcoupons', { cupon: code }), {
    schema: CouponListSchema,
    keepSessionOn: [400],
  });
  return list[0] ?? null;
}

/** `POST master/subscriptionViewMailSend?userName=&userEmail=`: the plans page's name and e-mail. */
export async function sendPlanLead(userName: string, userEmail: string): Promise<void> {
  await requestJson(withQuery('/api/master/subscriptionViewMailSend', { userName, userEmail }), {
    method: 'POST',
    schema: ResultSchema,
  });
}

/** `POST subscription/getsubscription {userID}`: the profile's subscription cards. */
export function getMySubscriptions(
  userID: string,
  signal?: AbortSignal,
): Promise<SubscriptionCard[]> {
  return authedRequest('/api/subscription/getsubscription', {
    method: 'POST',
    body: { userID },
    schema: SubscriptionCardListSchema,
    signal,
  });
}

/**
 * `POST subscription/updateAutoRenewal`: `{status, message}`; status false is a refusal with a
 * reason (no saved payment method). A 400 (the subscription lapsed) is shown, not a sign-out.
 */
export function updateAutoRenewal(input: {
  userID: string;
  mySubscriptionID: string;
  autoRenewStatus: boolean;
}): Promise<{ status: boolean; message: string }> {
  return authedRequest('/api/subscription/updateAutoRenewal', {
    method: 'POST',
    body: input,
    schema: StatusMessageSchema,
    keepSessionOn: [400],
  });
}

export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  plans: (stateId: number) => [...subscriptionKeys.all, 'plans', stateId] as const,
  plan: (stateId: number, subscriptionId: number) =>
    [...subscriptionKeys.all, 'plan', stateId, subscriptionId] as const,
  offers: (userId: string, stateId: number) =>
    [...subscriptionKeys.all, 'offers', userId, stateId] as const,
  mine: (userId: string) => [...subscriptionKeys.all, 'mine', userId] as const,
};
