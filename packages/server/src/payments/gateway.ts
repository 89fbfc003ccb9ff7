import type { CardType } from '@ratelens/core';

/*
 * The payment gateway interface (docs/ARCHITECTURE.md "Integrations"): `sandbox` (default,
 * sandbox-gateway.ts) or `authorizenet` (authorizenet-gateway.ts). Answers keep Authorize.Net's
 * createTransactionResponse shape, which is also what the payment calls answer
 * (subscriptions-and-payments §3 "Payment response", §8).
 */

/** Authorize.Net's transactionResponse; responseCode 1 approved, 2 declined, 3 error, 4 held for review. */
export interface TransactionResponse {
  responseCode: string;
  authCode?: string;
  avsResultCode?: string;
  cvvResultCode?: string;
  transId?: string;
  /** Masked: `XXXX1111`. */
  accountNumber?: string;
  /** Visa, MasterCard, AmericanExpress, Discover or eCheck. */
  accountType?: string;
  messages?: { code: string; description: string }[];
  errors?: { errorCode: string; errorText: string }[];
}

export interface GatewayAnswer {
  transactionResponse: TransactionResponse;
  messages: { resultCode: 'Ok' | 'Error'; message: { code: string; text: string }[] };
}

export interface StoredProfile {
  customerProfileId: string;
  paymentProfileId: string;
}

export interface ChargeResult {
  answer: GatewayAnswer;
  /** Created when the charge asked for it and was approved. */
  profile: StoredProfile | null;
}

export interface BillTo {
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

export type PaymentMethod =
  | {
      kind: 'card';
      brand: CardType;
      number: string;
      expiry: { month: number; year: number };
      cvv: string;
    }
  | {
      kind: 'bank';
      accountType: 'Checking' | 'Savings';
      routingNumber: string;
      accountNumber: string;
      nameOnAccount: string;
      bankName: string;
    };

export interface ChargeRequest {
  amountCents: number;
  /** Unique per order; reconciliation finds the transaction by it. At most 20 characters. */
  invoiceNumber: string;
  description: string;
  payment: PaymentMethod;
  billTo: BillTo;
  customer: { email: string };
  /** Store the card or account at the gateway for renewals and installments. */
  createProfile: boolean;
}

export interface ProfileChargeRequest {
  amountCents: number;
  invoiceNumber: string;
  description: string;
  profile: StoredProfile;
}

/** What the gateway knows of an invoice (after a timeout, the answer the call lost). */
export interface InvoiceLookup {
  status: 'approved' | 'declined' | 'error' | 'held';
  transId: string;
  amountCents: number;
  accountNumber?: string;
  accountType?: string;
  profile?: StoredProfile | null;
}

export interface PaymentGateway {
  readonly name: 'sandbox' | 'authorizenet';
  charge(request: ChargeRequest): Promise<ChargeResult>;
  chargeProfile(request: ProfileChargeRequest): Promise<ChargeResult>;
  /** The transaction of an invoice, or null when the gateway has none. */
  findByInvoice(invoiceNumber: string): Promise<InvoiceLookup | null>;
}

/**
 * The call did not produce an answer. `unknown`: it may have reached the gateway (a timeout, a
 * broken or garbled answer), so the order stays pending until reconciliation looks the invoice
 * up; `not-charged`: it certainly did not (the connection was refused), so the order failed.
 * The message never holds request data.
 */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly outcome: 'unknown' | 'not-charged',
    message: string,
  ) {
    super(message);
  }
}

export const RESPONSE_CODES = { approved: '1', declined: '2', error: '3', held: '4' } as const;

/** Authorize.Net's names of the card brands (transactionResponse.accountType). */
export function gatewayAccountType(payment: PaymentMethod): string {
  if (payment.kind === 'bank') return 'eCheck';
  switch (payment.brand) {
    case 'Visa':
      return 'Visa';
    case 'Master Card':
      return 'MasterCard';
    case 'American Express':
      return 'AmericanExpress';
    case 'Discover':
      return 'Discover';
  }
}

/** Dollars as Authorize.Net takes them: "12.34". */
export function dollarsOf(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Cents from an amount Authorize.Net reports (a number or a string of dollars). */
export function centsOf(amount: number | string): number {
  return Math.round(Number(amount) * 100);
}

export function approvedAnswer(fields: {
  transId: string;
  authCode: string;
  accountNumber: string;
  accountType: string;
  avsResultCode?: string;
  cvvResultCode?: string;
}): GatewayAnswer {
  return {
    transactionResponse: {
      responseCode: RESPONSE_CODES.approved,
      ...fields,
      messages: [{ code: '1', description: 'This transaction has been approved.' }],
    },
    messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
  };
}

/** A declined (2) or errored (3) transaction, as Authorize.Net answers it. */
export function refusedAnswer(
  responseCode: '2' | '3',
  errorCode: string,
  errorText: string,
  fields: Partial<TransactionResponse> = {},
): GatewayAnswer {
  return {
    transactionResponse: {
      ...fields,
      responseCode,
      errors: [{ errorCode, errorText }],
    },
    messages: {
      resultCode: 'Error',
      message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }],
    },
  };
}

export function heldAnswer(
  fields: Partial<TransactionResponse>,
  reasonCode: string,
): GatewayAnswer {
  return {
    transactionResponse: {
      ...fields,
      responseCode: RESPONSE_CODES.held,
      messages: [
        {
          code: reasonCode,
          description: 'Your order has been received. Thank you for your business!',
        },
      ],
    },
    messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
  };
}
