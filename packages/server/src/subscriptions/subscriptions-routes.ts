import {
  CheckoutFlagQuerySchema,
  CheckoutFlagSchema,
  CouponListSchema,
  CouponQuerySchema,
  CustomSubscriptionQuerySchema,
  GetSubscriptionByIdQuerySchema,
  GetSubscriptionQuerySchema,
  MaintenanceChargesQuerySchema,
  MaintenanceChargesSchema,
  MySubscriptionsRequestSchema,
  ResultSchema,
  StatusMessageSchema,
  SubscriptionCardListSchema,
  SubscriptionListSchema,
  SubscriptionSchema,
  SubscriptionViewMailQuerySchema,
  UpdateAutoRenewalRequestSchema,
  centsToDollars,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import type { Catalogue } from './catalogue.ts';
import type { CatalogueAdmin } from './catalogue-admin.ts';
import type { MySubscriptions } from './my-subscriptions.ts';
import type { PlanLeads } from './plan-leads.ts';
import { OWN_ACCOUNT } from '../http/openapi-errors.ts';

const legacyCoupon = (coupon: { id: number; code: string; percent: number }) => ({
  couponID: coupon.id,
  couponCode: coupon.code,
  couponDiscountPerc: coupon.percent,
});

export interface SubscriptionsRoutesOptions {
  auth: AuthService;
  catalogue: Catalogue;
  admin: CatalogueAdmin;
  mySubscriptions: MySubscriptions;
  planLeads: PlanLeads;
  /** Requests per minute and client address for the public lead form and coupon look-ups. */
  rateLimitPerMinute: number;
}

/**
 * subscriptions-and-payments §7 (catalogue calls) and search-and-accounts §7 (the profile's
 * subscription cards and auto-renewal). Tiles, checkout checks and coupons need a session; the
 * plan-by-id and maintenance-fee reads are public like the plans page itself.
 */
export const subscriptionsRoutes: FastifyPluginAsyncZod<SubscriptionsRoutesOptions> = async (
  app,
  { auth, catalogue, admin, mySubscriptions, planLeads, rateLimitPerMinute },
) => {
  const tags = ['Subscriptions'];
  const security = AUTHENTICATED;
  const signedIn = requireUser(auth);
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };

  // Public although the spec's client sent its session: the public plans page shows the same
  // tiles, and nothing in them belongs to an account (ADR 0017).
  app.get('/master/getsubscription', {
    schema: {
      tags,
      summary:
        "Plan tiles for a state (default Alabama): the state's plans, All States, Individual Search",
      querystring: GetSubscriptionQuerySchema,
      response: { 200: SubscriptionListSchema },
    },
    handler: async (request) => ({ data: await catalogue.tiles(request.query.stateId) }),
  });

  app.get('/Master/getsubscriptionbyid', {
    config: { refusals: { 404: 'No plan with this id is offered.' } },
    schema: {
      tags,
      summary: "One offered plan's tile for a state (default Alabama)",
      querystring: GetSubscriptionByIdQuerySchema,
      response: { 200: SubscriptionSchema },
    },
    handler: (request) => catalogue.tile(request.query.subscriptionid, request.query.stateId),
  });

  app.post('/Master/getCustomsubscriptionbyid', {
    config: { refusals: { 403: OWN_ACCOUNT } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: "The account's custom offers (for a state and national ones, when StateId is given)",
      querystring: CustomSubscriptionQuerySchema,
      response: { 200: SubscriptionListSchema },
    },
    handler: async (request) => ({
      data: await catalogue.customTiles(
        currentUser(request),
        request.query.userID,
        request.query.StateId,
      ),
    }),
  });

  app.get('/Subscription/getcheckoutflag', {
    config: { refusals: { 403: OWN_ACCOUNT } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Whether the account may buy a plan (for a state): 1, or 0 when it already holds it',
      querystring: CheckoutFlagQuerySchema,
      response: { 200: CheckoutFlagSchema },
    },
    handler: (request) =>
      catalogue.checkoutFlag(
        currentUser(request),
        request.query.userId,
        request.query.subscriptionId,
        request.query.state,
      ),
  });

  app.get('/Subscription/GetMaintancesCharges', {
    config: { refusals: { 404: 'No plan with this id is offered.' } },
    schema: {
      tags,
      summary: "A plan's monthly maintenance fee when paid in 12 installments",
      querystring: MaintenanceChargesQuerySchema,
      response: { 200: MaintenanceChargesSchema },
    },
    handler: async (request) => {
      const cents = await catalogue.maintenanceFee(request.query.filterInput);
      return [{ maintancesCharges: centsToDollars(cents), maintancesChargesCents: cents }];
    },
  });

  app.get('/Master/getallcoupons', {
    onRequest: signedIn,
    config: {
      ...limited,
      refusals: {
        403: 'The whole list (no `cupon` given), asked for by someone not an administrator.',
      },
    },
    schema: {
      tags,
      security,
      summary:
        'With cupon: that coupon if the account may use it now, else an empty list. Without: every coupon (admin only)',
      querystring: CouponQuerySchema,
      response: { 200: CouponListSchema },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const code = request.query.cupon;
      if (code === undefined) return (await admin.coupons(user)).map(legacyCoupon);
      const coupon = await catalogue.couponFor(user.userId, code);
      return coupon ? [legacyCoupon(coupon)] : [];
    },
  });

  app.post('/master/subscriptionViewMailSend', {
    config: limited,
    schema: {
      tags,
      summary: 'Leave a name and e-mail on the public plans page; the team is told',
      querystring: SubscriptionViewMailQuerySchema,
      response: { 200: ResultSchema },
    },
    handler: (request) =>
      planLeads.save({ name: request.query.userName, email: request.query.userEmail }, request.log),
  });

  app.post('/subscription/getsubscription', {
    config: { refusals: { 403: OWN_ACCOUNT } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: "The account's subscription cards: active, and lapsed within the last 24 hours",
      body: MySubscriptionsRequestSchema,
      response: { 200: SubscriptionCardListSchema },
    },
    handler: (request) => mySubscriptions.cards(currentUser(request), request.body.userID),
  });

  app.post('/subscription/updateAutoRenewal', {
    config: {
      refusals: {
        403: "Another account named, or the subscription is another account's.",
        404: 'No subscription has this id.',
      },
    },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: "Turn a subscription's auto-renewal on or off (on needs a saved payment method)",
      body: UpdateAutoRenewalRequestSchema,
      response: { 200: StatusMessageSchema },
    },
    handler: (request) => mySubscriptions.setAutoRenewal(currentUser(request), request.body),
  });
};
