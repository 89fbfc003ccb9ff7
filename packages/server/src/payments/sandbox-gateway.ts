import { randomBytes, randomInt } from 'node:crypto';
import type { Queryable } from '@ratelens/db';
import {
  GatewayError,
  approvedAnswer,
  gatewayAccountType,
  heldAnswer,
  refusedAnswer,
  type ChargeRequest,
  type ChargeResult,
  type GatewayAnswer,
  type InvoiceLookup,
  type PaymentGateway,
  type ProfileChargeRequest,
  type StoredProfile,
} from './gateway.ts';

/*
 * PAYMENT_GATEWAY=sandbox (the default): a deterministic stand-in for Authorize.Net that answers
 * as its sandbox does for the documented test data (developer.authorize.net "Testing Guide"):
 *
 * - any card that passes our checks is approved (the guide's test cards among them:
 *   4111111111111111, 4007000000027, 4012888818888, 5424000000000015, 2223000010309703,
 *   370000000000002, 6011000000000012);
 * - billing ZIP 46282 declines a card ("General bank decline");
 * - card 4222222222222 turns a whole-dollar amount into that response reason code: $2.00
 *   declines, $27.00 is an AVS mismatch, $19.00 a processing error, $252.00 held for review, …
 *   (REASONS below); other amounts are approved;
 * - eCheck: any routing number passing the ABA checksum; amounts up to $100.00 are approved,
 *   over $100.00 declined;
 * - AVS ZIPs 46201–46217 and card codes 900–904 set avsResultCode / cvvResultCode only.
 *
 * RateLens adds three billing ZIPs of its own to exercise what the real sandbox cannot be made to
 * do on demand (docs/decisions/0017): 46290 takes the charge and then loses the answer (a
 * timeout after the fact), 46291 times out before anything is recorded, and 46292 cannot be
 * reached at all. A stored profile keeps the triggers of the card it was made from.
 *
 * Its books are the `sandbox_ledger` table, so findByInvoice and stored profiles survive a
 * restart. No card or account number is kept: last four digits, brand and ZIP only.
 */

interface Reason {
  responseCode: '2' | '3' | '4';
  text: string;
}

const DECLINED = 'This transaction has been declined.';
const PROCESSING_ERROR = 'An error occurred during processing. Please try again in 5 minutes.';
const HELD = 'Your order has been received. Thank you for your business!';

/** Authorize.Net response reason codes the 4222222222222 amount trigger can produce. */
const REASONS: Record<number, Reason> = {
  2: { responseCode: '2', text: DECLINED },
  3: { responseCode: '2', text: DECLINED },
  4: { responseCode: '2', text: DECLINED },
  5: { responseCode: '3', text: 'A valid amount is required.' },
  6: { responseCode: '3', text: 'The credit card number is invalid.' },
  7: { responseCode: '3', text: 'Credit card expiration date is invalid.' },
  8: { responseCode: '3', text: 'The credit card has expired.' },
  11: { responseCode: '3', text: 'A duplicate transaction has been submitted.' },
  17: { responseCode: '3', text: 'The merchant does not accept this type of credit card.' },
  19: { responseCode: '3', text: PROCESSING_ERROR },
  20: { responseCode: '3', text: PROCESSING_ERROR },
  21: { responseCode: '3', text: PROCESSING_ERROR },
  22: { responseCode: '3', text: PROCESSING_ERROR },
  23: { responseCode: '3', text: PROCESSING_ERROR },
  27: {
    responseCode: '2',
    text: 'The transaction has been declined because of an AVS mismatch. The address provided does not match billing address of cardholder.',
  },
  37: { responseCode: '2', text: 'The credit card number is invalid.' },
  44: { responseCode: '2', text: DECLINED },
  45: { responseCode: '2', text: DECLINED },
  57: {
    responseCode: '3',
    text: 'An error occurred in processing. Please try again in 5 minutes.',
  },
  65: { responseCode: '2', text: DECLINED },
  120: { responseCode: '3', text: 'An error occurred during processing. Please try again.' },
  121: { responseCode: '3', text: 'An error occurred during processing. Please try again.' },
  122: { responseCode: '3', text: 'An error occurred during processing. Please try again.' },
  250: { responseCode: '2', text: DECLINED },
  251: { responseCode: '2', text: DECLINED },
  252: { responseCode: '4', text: HELD },
  253: { responseCode: '4', text: HELD },
  254: { responseCode: '2', text: DECLINED },
};

export const SANDBOX = {
  triggerCard: '4222222222222',
  declineZip: '46282',
  /** RateLens's own: the charge is taken, the answer lost. */
  lostAnswerZip: '46290',
  /** RateLens's own: the call times out before the gateway records anything. */
  timeoutZip: '46291',
  /** RateLens's own: the gateway cannot be reached. */
  unreachableZip: '46292',
  echeckLimitCents: 10_000,
} as const;

const AVS_BY_ZIP: Record<string, string> = {
  '46201': 'A',
  '46203': 'E',
  '46204': 'G',
  '46205': 'N',
  '46206': 'P',
  '46207': 'R',
  '46208': 'S',
  '46209': 'U',
  '46211': 'W',
  '46214': 'X',
  '46217': 'Z',
};
const CVV_BY_CODE: Record<string, string> = {
  '900': 'M',
  '901': 'N',
  '902': 'S',
  '903': 'U',
  '904': 'P',
};

/** What the sandbox keeps of a card or account: enough to answer again, no number. */
interface Instrument {
  kind: 'card' | 'bank';
  accountType: string;
  last4: string;
  zip: string;
  /** Made from the trigger card 4222222222222: amounts select reason codes. */
  amountTriggers: boolean;
  cvvResultCode?: string;
}

interface TransactionRecord {
  responseCode: string;
  amountCents: number;
  accountNumber: string;
  accountType: string;
  profile: StoredProfile | null;
}

export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox';

  constructor(private readonly db: Queryable) {}

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const { payment } = request;
    const instrument: Instrument = {
      kind: payment.kind,
      accountType: gatewayAccountType(payment),
      last4: (payment.kind === 'card' ? payment.number : payment.accountNumber).slice(-4),
      zip: request.billTo.zip.slice(0, 5),
      amountTriggers: payment.kind === 'card' && payment.number === SANDBOX.triggerCard,
      ...(payment.kind === 'card' ? { cvvResultCode: CVV_BY_CODE[payment.cvv] ?? 'M' } : {}),
    };
    return this.process(
      request.invoiceNumber,
      request.amountCents,
      instrument,
      request.createProfile,
    );
  }

  async chargeProfile(request: ProfileChargeRequest): Promise<ChargeResult> {
    const { rows } = await this.db.query<{ record: Instrument & { paymentProfileId: string } }>(
      `SELECT record FROM sandbox_ledger WHERE kind = 'profile' AND id = $1`,
      [request.profile.customerProfileId],
    );
    const stored = rows[0]?.record;
    if (!stored || stored.paymentProfileId !== request.profile.paymentProfileId)
      return {
        answer: {
          ...refusedAnswer('3', 'E00040', 'The record cannot be found.'),
          messages: {
            resultCode: 'Error',
            message: [{ code: 'E00040', text: 'The record cannot be found.' }],
          },
        },
        profile: null,
      };
    return this.process(request.invoiceNumber, request.amountCents, stored, false);
  }

  async findByInvoice(invoiceNumber: string): Promise<InvoiceLookup | null> {
    const { rows } = await this.db.query<{ id: string; record: TransactionRecord }>(
      `SELECT id, record FROM sandbox_ledger WHERE kind = 'transaction' AND invoice_number = $1
        ORDER BY created_at DESC LIMIT 1`,
      [invoiceNumber],
    );
    const row = rows[0];
    if (!row) return null;
    const status = (
      { '1': 'approved', '2': 'declined', '4': 'held' } as const satisfies Record<
        string,
        InvoiceLookup['status']
      >
    )[row.record.responseCode as '1' | '2' | '4'];
    return {
      status: status ?? 'error',
      transId: row.id,
      amountCents: row.record.amountCents,
      accountNumber: row.record.accountNumber,
      accountType: row.record.accountType,
      profile: row.record.profile,
    };
  }

  private async process(
    invoiceNumber: string,
    amountCents: number,
    instrument: Instrument,
    createProfile: boolean,
  ): Promise<ChargeResult> {
    if (instrument.zip === SANDBOX.unreachableZip)
      throw new GatewayError('not-charged', 'The sandbox gateway could not be reached.');
    if (instrument.zip === SANDBOX.timeoutZip)
      throw new GatewayError('unknown', 'The sandbox gateway did not answer in time.');

    const transId = String(randomInt(10_000_000_000, 100_000_000_000));
    const fields = {
      transId,
      accountNumber: `XXXX${instrument.last4}`,
      accountType: instrument.accountType,
    };
    const answer = this.decide(amountCents, instrument, fields);
    const approved = answer.transactionResponse.responseCode === '1';
    const profile = approved && createProfile ? await this.storeProfile(instrument) : null;
    const record: TransactionRecord = {
      responseCode: answer.transactionResponse.responseCode,
      amountCents,
      accountNumber: fields.accountNumber,
      accountType: fields.accountType,
      profile,
    };
    await this.db.query(
      `INSERT INTO sandbox_ledger (id, kind, invoice_number, record) VALUES ($1, 'transaction', $2, $3)`,
      [transId, invoiceNumber, JSON.stringify(record)],
    );
    if (instrument.zip === SANDBOX.lostAnswerZip)
      throw new GatewayError('unknown', 'The sandbox gateway did not answer in time.');
    return { answer, profile };
  }

  private decide(
    amountCents: number,
    instrument: Instrument,
    fields: { transId: string; accountNumber: string; accountType: string },
  ): GatewayAnswer {
    if (instrument.kind === 'bank') {
      if (amountCents > SANDBOX.echeckLimitCents) return refusedAnswer('2', '2', DECLINED, fields);
      return approvedAnswer({ ...fields, authCode: '' });
    }
    const card = {
      ...fields,
      avsResultCode: AVS_BY_ZIP[instrument.zip] ?? 'Y',
      cvvResultCode: instrument.cvvResultCode ?? 'M',
    };
    if (instrument.zip === SANDBOX.declineZip) return refusedAnswer('2', '2', DECLINED, card);
    const reasonCode = amountCents % 100 === 0 ? amountCents / 100 : 0;
    const reason = instrument.amountTriggers ? REASONS[reasonCode] : undefined;
    if (reason?.responseCode === '4') return heldAnswer(card, String(reasonCode));
    if (reason) return refusedAnswer(reason.responseCode, String(reasonCode), reason.text, card);
    return approvedAnswer({ ...card, authCode: randomBytes(3).toString('hex').toUpperCase() });
  }

  private async storeProfile(instrument: Instrument): Promise<StoredProfile> {
    const profile = {
      customerProfileId: String(randomInt(100_000_000, 1_000_000_000)),
      paymentProfileId: String(randomInt(100_000_000, 1_000_000_000)),
    };
    await this.db.query(
      `INSERT INTO sandbox_ledger (id, kind, record) VALUES ($1, 'profile', $2)`,
      [profile.customerProfileId, JSON.stringify({ ...instrument, ...profile })],
    );
    return profile;
  }
}
