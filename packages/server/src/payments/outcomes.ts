import {
  GatewayError,
  RESPONSE_CODES,
  approvedAnswer,
  refusedAnswer,
  type ChargeResult,
  type GatewayAnswer,
  type InvoiceLookup,
} from './gateway.ts';
import type { OrderRow } from './orders.ts';
import type { Outcome } from './settlement.ts';

/*
 * What a gateway answer, a failed call or a looked-up invoice means for an order, and the HTTP
 * status the client gets with it. Declines and the gateway's own errors are answers (200, the
 * client shows errors[0].errorText); no answer is 502 (nothing charged) or 504 (the order stays
 * pending), both in the same shape with the spec's failure message (subscriptions-and-payments §8).
 */

export const HELD_TEXT =
  'Your payment is held for review by the payment processor. It completes once the review approves it; check your profile later.';

/** Our answer when the gateway gave none: the same shape, with the failure message to show. */
export function noAnswer(errorCode: string, text: string): GatewayAnswer {
  return {
    transactionResponse: {
      responseCode: RESPONSE_CODES.error,
      errors: [{ errorCode, errorText: text }],
    },
    messages: { resultCode: 'Error', message: [{ code: errorCode, text }] },
  };
}

export const NO_CHARGE_TEXT = 'Nothing was charged: the order costs nothing.';

/** An order that costs nothing (a 100% coupon): paid without a gateway call (ADR 0017). */
export function noChargeOutcome(): Outcome {
  return {
    status: 'paid',
    httpStatus: 200,
    answer: {
      transactionResponse: {
        responseCode: RESPONSE_CODES.approved,
        messages: [{ code: 'NO_CHARGE', description: NO_CHARGE_TEXT }],
      },
      messages: { resultCode: 'Ok', message: [{ code: 'NO_CHARGE', text: NO_CHARGE_TEXT }] },
    },
    transactionId: null,
    profile: null,
  };
}

export function outcomeOfAnswer(result: ChargeResult, failureText: string): Outcome {
  const { answer } = result;
  const transaction = answer.transactionResponse;
  const transactionId =
    transaction.transId && transaction.transId !== '0' ? transaction.transId : null;
  switch (transaction.responseCode) {
    case RESPONSE_CODES.approved:
      return { status: 'paid', httpStatus: 200, answer, transactionId, profile: result.profile };
    case RESPONSE_CODES.declined:
      return { status: 'declined', httpStatus: 200, answer, transactionId, profile: null };
    case RESPONSE_CODES.held:
      return {
        status: 'pending',
        httpStatus: 202,
        answer: {
          ...answer,
          transactionResponse: {
            ...transaction,
            errors: [{ errorCode: transaction.messages?.[0]?.code ?? '252', errorText: HELD_TEXT }],
          },
        },
        transactionId,
        profile: null,
      };
    default:
      // An error the processor reached a decision on has its own text; a request the gateway
      // refused as a whole (credentials, a malformed field) is our fault, not the payer's.
      if (transactionId)
        return { status: 'failed', httpStatus: 200, answer, transactionId, profile: null };
      return {
        status: 'failed',
        httpStatus: 502,
        answer: noAnswer(transaction.errors?.[0]?.errorCode ?? 'GATEWAY_REFUSED', failureText),
        transactionId: null,
        profile: null,
      };
  }
}

export function outcomeOfError(error: GatewayError, failureText: string): Outcome {
  return error.outcome === 'not-charged'
    ? {
        status: 'failed',
        httpStatus: 502,
        answer: noAnswer('GATEWAY_UNAVAILABLE', failureText),
        transactionId: null,
        profile: null,
      }
    : {
        status: 'pending',
        httpStatus: 504,
        answer: noAnswer('GATEWAY_TIMEOUT', failureText),
        transactionId: null,
        profile: null,
      };
}

/** The outcome reconciliation found at the gateway for an order whose call lost its answer. */
export function outcomeOfLookup(
  order: OrderRow,
  lookup: InvoiceLookup,
  failureText: string,
): Outcome | null {
  const fields = {
    transId: lookup.transId,
    accountNumber: lookup.accountNumber ?? `XXXX${order.last4 ?? ''}`,
    accountType: lookup.accountType ?? order.accountType ?? '',
  };
  switch (lookup.status) {
    case 'approved':
      return {
        status: 'paid',
        httpStatus: 200,
        answer: approvedAnswer({ ...fields, authCode: '' }),
        transactionId: lookup.transId,
        profile: lookup.profile ?? null,
      };
    case 'declined':
      return {
        status: 'declined',
        httpStatus: 200,
        answer: refusedAnswer('2', '2', 'This transaction has been declined.', fields),
        transactionId: lookup.transId,
        profile: null,
      };
    case 'error':
      return {
        status: 'failed',
        httpStatus: 200,
        answer: refusedAnswer('3', '3', failureText, fields),
        transactionId: lookup.transId,
        profile: null,
      };
    case 'held':
      return null;
  }
}

export function isGatewayError(error: unknown): error is GatewayError {
  return error instanceof GatewayError;
}
