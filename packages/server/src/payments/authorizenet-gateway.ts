import {
  GatewayError,
  centsOf,
  dollarsOf,
  type ChargeRequest,
  type ChargeResult,
  type GatewayAnswer,
  type InvoiceLookup,
  type PaymentGateway,
  type ProfileChargeRequest,
  type StoredProfile,
  type TransactionResponse,
} from './gateway.ts';

/*
 * PAYMENT_GATEWAY=authorizenet: Authorize.Net's JSON API (one POST endpoint, request named by
 * its top-level key; developer.authorize.net/api/reference). Its JSON is converted to XML on
 * their side, so the members of every element are written in the schema's order. Answers start
 * with a byte-order mark. Only the masked account number of an answer is kept.
 */

export const AUTHORIZENET_SANDBOX_URL = 'https://apitest.authorize.net/xml/v1/request.api';

export interface AuthorizeNetOptions {
  url: string;
  apiLoginId: string;
  transactionKey: string;
  timeoutMs: number;
}

interface ApiMessages {
  resultCode: 'Ok' | 'Error';
  message: { code: string; text: string }[];
}

interface CreateTransactionResponse {
  transactionResponse?: TransactionResponse;
  profileResponse?: {
    messages?: ApiMessages;
    customerProfileId?: string;
    customerPaymentProfileIdList?: string[];
  };
  messages: ApiMessages;
}

interface UnsettledListResponse {
  transactions?: {
    transId: string;
    transactionStatus: string;
    invoiceNumber?: string;
    accountType?: string;
    accountNumber?: string;
    settleAmount?: number | string;
  }[];
  totalNumInResultSet?: number;
  messages: ApiMessages;
}

/**
 * Authorize.Net's field lengths: it refuses longer values. The billing address is already held
 * to them by `BillingAddressSchema` (a longer value is a 400 naming the field); this cut is for
 * values we compose (the description) and a last guard.
 */
const cut = (value: string, max: number) => value.slice(0, max);

/** Transaction statuses of the Transaction Reporting API, as order outcomes. */
const STATUS_OUTCOME: Record<string, InvoiceLookup['status']> = {
  authorizedPendingCapture: 'approved',
  capturedPendingSettlement: 'approved',
  settledSuccessfully: 'approved',
  refundSettledSuccessfully: 'approved',
  refundPendingSettlement: 'approved',
  declined: 'declined',
  voided: 'declined',
  expired: 'declined',
  FDSPendingReview: 'held',
  FDSAuthorizedPendingReview: 'held',
  underReview: 'held',
  approvedReview: 'approved',
  failedReview: 'declined',
};

const LIST_PAGE = 1000;
const LIST_PAGES = 5;

export class AuthorizeNetGateway implements PaymentGateway {
  readonly name = 'authorizenet';

  constructor(private readonly options: AuthorizeNetOptions) {}

  private get merchantAuthentication() {
    return { name: this.options.apiLoginId, transactionKey: this.options.transactionKey };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const { payment, billTo } = request;
    const transactionRequest = {
      transactionType: 'authCaptureTransaction',
      amount: dollarsOf(request.amountCents),
      payment:
        payment.kind === 'card'
          ? {
              creditCard: {
                cardNumber: payment.number,
                expirationDate: `${payment.expiry.year}-${String(payment.expiry.month).padStart(2, '0')}`,
                cardCode: payment.cvv,
              },
            }
          : {
              bankAccount: {
                accountType: payment.accountType === 'Savings' ? 'savings' : 'checking',
                routingNumber: payment.routingNumber,
                accountNumber: payment.accountNumber,
                nameOnAccount: cut(payment.nameOnAccount, 22),
                echeckType: 'WEB',
                bankName: cut(payment.bankName, 50),
              },
            },
      ...(request.createProfile ? { profile: { createProfile: true } } : {}),
      order: { invoiceNumber: request.invoiceNumber, description: cut(request.description, 255) },
      // The profile made from this charge is keyed by the customer id: one per order, so a second
      // purchase does not collide with the first one's profile (E00039).
      customer: {
        type: 'individual',
        id: request.invoiceNumber,
        email: cut(request.customer.email, 255),
      },
      billTo: {
        firstName: cut(billTo.firstName, 50),
        lastName: cut(billTo.lastName, 50),
        address: cut(billTo.address, 60),
        city: cut(billTo.city, 40),
        state: cut(billTo.state, 40),
        zip: cut(billTo.zip, 20),
        country: 'US',
      },
    };
    const response = await this.call<CreateTransactionResponse>('createTransactionRequest', {
      refId: request.invoiceNumber,
      transactionRequest,
    });
    return resultOf(response);
  }

  async chargeProfile(request: ProfileChargeRequest): Promise<ChargeResult> {
    const response = await this.call<CreateTransactionResponse>('createTransactionRequest', {
      refId: request.invoiceNumber,
      transactionRequest: {
        transactionType: 'authCaptureTransaction',
        amount: dollarsOf(request.amountCents),
        profile: {
          customerProfileId: request.profile.customerProfileId,
          paymentProfile: { paymentProfileId: request.profile.paymentProfileId },
        },
        order: { invoiceNumber: request.invoiceNumber, description: cut(request.description, 255) },
      },
    });
    return { answer: resultOf(response).answer, profile: null };
  }

  /**
   * Looks the invoice up among the unsettled transactions (newest first), which is where a
   * transaction is in the hours after a timeout; a settled one is not searched.
   */
  async findByInvoice(invoiceNumber: string): Promise<InvoiceLookup | null> {
    for (let page = 1; page <= LIST_PAGES; page += 1) {
      const response = await this.call<UnsettledListResponse>(
        'getUnsettledTransactionListRequest',
        {
          sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
          paging: { limit: LIST_PAGE, offset: page },
        },
      );
      if (response.messages.resultCode !== 'Ok')
        throw new GatewayError(
          'unknown',
          `Authorize.Net refused the transaction list (${codeOf(response.messages)}).`,
        );
      const transactions = response.transactions ?? [];
      const found = transactions.find((t) => t.invoiceNumber === invoiceNumber);
      if (found)
        return {
          status: STATUS_OUTCOME[found.transactionStatus] ?? 'error',
          transId: found.transId,
          amountCents: centsOf(found.settleAmount ?? 0),
          ...(found.accountNumber ? { accountNumber: found.accountNumber } : {}),
          ...(found.accountType ? { accountType: found.accountType } : {}),
          profile: null,
        };
      if (transactions.length < LIST_PAGE) return null;
    }
    return null;
  }

  private async call<T extends { messages: ApiMessages }>(
    requestName: string,
    body: Record<string, unknown>,
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          [requestName]: { merchantAuthentication: this.merchantAuthentication, ...body },
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw connectionError(error, this.options.timeoutMs);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw connectionError(error, this.options.timeoutMs);
    }
    if (!response.ok)
      throw new GatewayError('unknown', `Authorize.Net answered HTTP ${response.status}.`);
    try {
      const parsed = JSON.parse(text.replace(/^\uFEFF/, '')) as T;
      if (!parsed?.messages?.resultCode) throw new Error('no messages');
      return parsed;
    } catch {
      throw new GatewayError('unknown', 'Authorize.Net answered something that is not its JSON.');
    }
  }
}

/** The connection failed: before sending (refused, no such host) nothing was charged. */
function connectionError(error: unknown, timeoutMs: number): GatewayError {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return new GatewayError('unknown', `Authorize.Net did not answer within ${timeoutMs} ms.`);
  const code = (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new GatewayError('not-charged', `Authorize.Net could not be reached (${code}).`);
  return new GatewayError('unknown', 'The connection to Authorize.Net broke before it answered.');
}

function codeOf(messages: ApiMessages): string {
  return messages.message[0]?.code ?? 'no code';
}

/** The answer in the shape the payment calls return; a request refused as a whole becomes an error. */
function resultOf(response: CreateTransactionResponse): ChargeResult {
  const transaction = response.transactionResponse;
  const answer: GatewayAnswer = {
    transactionResponse:
      transaction && transaction.responseCode
        ? pick(transaction)
        : {
            responseCode: '3',
            errors: response.messages.message.map((m) => ({
              errorCode: m.code,
              errorText: m.text,
            })),
          },
    messages: { resultCode: response.messages.resultCode, message: response.messages.message },
  };
  const profileId = response.profileResponse?.customerProfileId;
  const paymentProfileId = response.profileResponse?.customerPaymentProfileIdList?.[0];
  const profile: StoredProfile | null =
    answer.transactionResponse.responseCode === '1' && profileId && paymentProfileId
      ? { customerProfileId: profileId, paymentProfileId }
      : null;
  return { answer, profile };
}

/** The fields RateLens keeps and answers with (no hashes, no user fields). */
function pick(t: TransactionResponse): TransactionResponse {
  return {
    responseCode: t.responseCode,
    ...(t.authCode !== undefined ? { authCode: t.authCode } : {}),
    ...(t.avsResultCode !== undefined ? { avsResultCode: t.avsResultCode } : {}),
    ...(t.cvvResultCode !== undefined ? { cvvResultCode: t.cvvResultCode } : {}),
    ...(t.transId !== undefined ? { transId: t.transId } : {}),
    ...(t.accountNumber !== undefined ? { accountNumber: t.accountNumber } : {}),
    ...(t.accountType !== undefined ? { accountType: t.accountType } : {}),
    ...(t.messages ? { messages: t.messages } : {}),
    ...(t.errors ? { errors: t.errors } : {}),
  };
}
