import {
  CheckPaymentRequestSchema,
  DonationCheckRequestSchema,
  FreeOrderRequestSchema,
  IdempotencyKeySchema,
  PaymentResponseSchema,
  cardPaymentRequestSchema,
  donationCardRequestSchema,
} from '@ratelens/core';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/auth-service.ts';
import type { DonationCodes } from '../donations/donation-codes.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import type { StoredReply } from './orders.ts';
import type { PaymentService } from './payment-service.ts';

export interface PaymentRoutesOptions {
  auth: AuthService;
  payments: PaymentService;
  donationCodes: DonationCodes;
  /** Payment calls per minute and client address. */
  rateLimitPerMinute: number;
}

// Header names arrive lower-case. Loose: the other headers (authorization, secret_key) stay.
const PaymentHeadersSchema = z.looseObject({ 'idempotency-key': IdempotencyKeySchema });
const DonationHeadersSchema = z.looseObject({
  'idempotency-key': IdempotencyKeySchema,
  'donation-token': z.string().max(200).optional(),
});

/** 200 approved, declined or refused by the processor; 202 held for review; 502 not charged; 504 pending. */
const responses = {
  200: PaymentResponseSchema,
  202: PaymentResponseSchema,
  502: PaymentResponseSchema,
  504: PaymentResponseSchema,
};
type PaymentStatus = keyof typeof responses;

function send(reply: FastifyReply, result: StoredReply) {
  return reply.status(result.httpStatus as PaymentStatus).send(result.body);
}

/**
 * The payment calls (subscriptions-and-payments §7). The amount charged is computed by the
 * server; the answer keeps Authorize.Net's shape (§3, §8). Subscription payments need the
 * session (bearer and secret_key headers, never in the body); donation payments need the
 * `Donation-Token` from the e-mail check. Every call needs an `Idempotency-Key` header, one per
 * checkout attempt.
 */
export const paymentRoutes: FastifyPluginAsyncZod<PaymentRoutesOptions> = async (
  app,
  { auth, payments, donationCodes, rateLimitPerMinute },
) => {
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };
  const cartRefusals = {
    403: 'A cart item names another account, or an offer made to another account.',
    409: 'The price changed since it was shown (`expectedAmountCents`), a payment of the account is still pending, or the Idempotency-Key came with another request.',
  };
  const donationRefusals = {
    409: 'A donation from this address is still pending, or the Idempotency-Key came with another request.',
  };
  const tags = ['Payments'];
  const authenticated = requireUser(auth);
  const description =
    'Charges the cart priced by the server (prices in the body are ignored). A repeat with the same Idempotency-Key answers what the first answered and charges nothing; the same key with a different body is refused (409). responseCode 1 is approved; 2 declined and 3 refused, both with errors[0].errorText; 202 held for review; 502 nothing was charged; 504 the gateway did not answer and the order stays pending until reconciled (GET Payment/order/{orderId}).';

  app.post('/Payment/CardPayment', {
    config: { ...limited, refusals: cartRefusals },
    onRequest: authenticated,
    schema: {
      tags,
      summary: 'Pay for the cart by card',
      description,
      security: AUTHENTICATED,
      headers: PaymentHeadersSchema,
      body: cardPaymentRequestSchema(),
      response: responses,
    },
    handler: async (request, reply) =>
      send(
        reply,
        await payments.paySubscriptions(
          currentUser(request),
          request.headers['idempotency-key'],
          'card',
          request.body,
        ),
      ),
  });

  app.post('/Payment/CeckPayment', {
    config: { ...limited, refusals: cartRefusals },
    onRequest: authenticated,
    schema: {
      tags,
      summary: 'Pay for the cart by echeck (bank account)',
      description,
      security: AUTHENTICATED,
      headers: PaymentHeadersSchema,
      body: CheckPaymentRequestSchema,
      response: responses,
    },
    handler: async (request, reply) =>
      send(
        reply,
        await payments.paySubscriptions(
          currentUser(request),
          request.headers['idempotency-key'],
          'echeck',
          request.body,
        ),
      ),
  });

  app.post('/Payment/FreeOrder', {
    config: { ...limited, refusals: cartRefusals },
    onRequest: authenticated,
    schema: {
      tags,
      summary: 'Complete a cart that costs nothing (a 100% coupon) without a payment',
      description:
        'For a cart the server prices at $0.00 today and later (a coupon takes the whole price of items paid once): the order is recorded with its coupon and paid at once, with no gateway call and no payment method kept, so its subscriptions do not renew by themselves. A cart with anything to pay is refused (400), or 409 when expectedAmountCents differs from the price. Idempotency-Key as for the other payment calls.',
      security: AUTHENTICATED,
      headers: PaymentHeadersSchema,
      body: FreeOrderRequestSchema,
      response: { 200: PaymentResponseSchema },
    },
    handler: async (request, reply) =>
      send(
        reply,
        await payments.completeFreeOrder(
          currentUser(request),
          request.headers['idempotency-key'],
          request.body,
        ),
      ),
  });

  app.get('/Payment/order/:orderId', {
    config: {
      ...limited,
      refusals: { 403: 'The order belongs to another account.', 404: 'No order has this id.' },
    },
    onRequest: authenticated,
    schema: {
      tags,
      summary: "An order's answer now (looked up at the gateway while it is pending)",
      security: AUTHENTICATED,
      params: z.object({ orderId: z.uuid('orderId must be an order id.') }),
      response: responses,
    },
    handler: async (request, reply) =>
      send(reply, await payments.orderStatus(currentUser(request), request.params.orderId)),
  });

  const donationDescription =
    'The donor is the e-mail address confirmed by Donation/donationUserOtpVerify: send its donationToken as the Donation-Token header.';

  app.post('/Payment/DonationCardPayment', {
    config: { ...limited, refusals: donationRefusals },
    schema: {
      tags,
      summary: 'Donate by card',
      description: donationDescription,
      headers: DonationHeadersSchema,
      body: donationCardRequestSchema(),
      response: responses,
    },
    handler: async (request, reply) => {
      const donor = await donationCodes.donorEmail(request.headers['donation-token']);
      return send(
        reply,
        await payments.donate(donor, request.headers['idempotency-key'], 'card', request.body),
      );
    },
  });

  app.post('/Payment/DonationCeckPayment', {
    config: { ...limited, refusals: donationRefusals },
    schema: {
      tags,
      summary: 'Donate by echeck (bank account)',
      description: donationDescription,
      headers: DonationHeadersSchema,
      body: DonationCheckRequestSchema,
      response: responses,
    },
    handler: async (request, reply) => {
      const donor = await donationCodes.donorEmail(request.headers['donation-token']);
      return send(
        reply,
        await payments.donate(donor, request.headers['idempotency-key'], 'echeck', request.body),
      );
    },
  });
};
