import { PaymentResponseSchema, type PaymentResponse } from '@ratelens/core';
import { authedRequest } from '../auth/api-client.ts';
import { ApiRequestError, requestJson } from '../../shared/http.ts';

/**
 * The end of one payment request (subscriptions-and-payments §4 "Payment", §8). `settled` says
 * whether the outcome is known: a decline or a refused request is; a lost connection, a server
 * error or an order left pending by a gateway timeout is not, and a retry of the same attempt
 * must then reuse its Idempotency-Key so that it cannot charge twice.
 */
export type PaymentOutcome =
  { ok: true; response: PaymentResponse } | { ok: false; message: string; settled: boolean };

/** Response code 1 is an approval (§9); anything else is read for its first error. */
function outcomeOf(response: PaymentResponse, fallback: string): PaymentOutcome {
  if (response.transactionResponse.responseCode === '1' && response.orderStatus === 'paid')
    return { ok: true, response };
  const message =
    response.transactionResponse.errors?.[0]?.errorText ||
    response.messages.message[0]?.text ||
    fallback;
  return { ok: false, message, settled: response.orderStatus !== 'pending' };
}

function failureOf(error: unknown, fallback: string): PaymentOutcome {
  if (!(error instanceof ApiRequestError)) return { ok: false, message: fallback, settled: false };
  // A decline answered with an error status still carries the gateway's answer.
  const answer = PaymentResponseSchema.safeParse(error.body);
  if (answer.success) return outcomeOf(answer.data, fallback);
  // No answer, or the server failed: whether anything was charged is unknown (§8's message).
  if (error.status === 0 || error.status >= 500)
    return { ok: false, message: fallback, settled: false };
  // Refused before any charge (a field the server rejects, a price that changed).
  return { ok: false, message: error.serverMessage ?? fallback, settled: true };
}

export interface PaymentRequest {
  path: string;
  body: unknown;
  /** One per checkout attempt (see PaymentAttempts). */
  idempotencyKey: string;
  /** Signed-in payments carry the session; donations carry their Donation-Token instead. */
  authenticated: boolean;
  headers?: Record<string, string>;
  /** The message for a failure without an answer to show. */
  fallback: string;
}

/** Sends a payment and reads its outcome. Never throws. */
export async function sendPayment(request: PaymentRequest): Promise<PaymentOutcome> {
  const options = {
    method: 'POST' as const,
    body: request.body,
    headers: { ...request.headers, 'Idempotency-Key': request.idempotencyKey },
    schema: PaymentResponseSchema,
  };
  try {
    const response = request.authenticated
      ? // A refused payment (400, 402, 409) is shown on the page; it does not end the session.
        await authedRequest(request.path, { ...options, keepSessionOn: [400, 402, 409, 422] })
      : await requestJson(request.path, options);
    return outcomeOf(response, request.fallback);
  } catch (error) {
    return failureOf(error, request.fallback);
  }
}
