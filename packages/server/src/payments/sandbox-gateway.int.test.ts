import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayError } from './gateway.ts';
import { type ChargeRequest } from './gateway.ts';
import { SANDBOX, SandboxGateway } from './sandbox-gateway.ts';

let database: TestDatabase;
let gateway: SandboxGateway;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = new SandboxGateway(database.connection.pool);
});
afterAll(() => database.drop());

let invoice = 0;
function charge(
  amountCents: number,
  overrides: { number?: string; zip?: string; cvv?: string; createProfile?: boolean } = {},
): ChargeRequest {
  invoice += 1;
  return {
    amountCents,
    invoiceNumber: `RLSANDBOX${String(invoice).padStart(6, '0')}`,
    description: 'test',
    payment: {
      kind: 'card',
      brand: 'Visa',
      number: overrides.number ?? '4007000000027',
      expiry: { month: 12, year: 2040 },
      cvv: overrides.cvv ?? '123',
    },
    billTo: {
      firstName: 'Ellen',
      lastName: 'Johnson',
      address: '14 Main Street',
      city: 'Pecan Springs',
      state: 'TX',
      zip: overrides.zip ?? '44628',
    },
    customer: { email: 'ellen@example.com' },
    createProfile: overrides.createProfile ?? false,
  };
}

describe('the sandbox gateway', () => {
  it('approves a test card in Authorize.Net’s shape', async () => {
    const { answer } = await gateway.charge(charge(1234));
    expect(answer.transactionResponse).toMatchObject({
      responseCode: '1',
      accountNumber: 'XXXX0027',
      accountType: 'Visa',
      avsResultCode: 'Y',
      messages: [{ code: '1', description: 'This transaction has been approved.' }],
    });
    expect(answer.transactionResponse.transId).toMatch(/^\d{11}$/);
    expect(answer.messages).toEqual({
      resultCode: 'Ok',
      message: [{ code: 'I00001', text: 'Successful.' }],
    });
  });

  it('declines billing ZIP 46282', async () => {
    const { answer } = await gateway.charge(charge(1234, { zip: SANDBOX.declineZip }));
    expect(answer.transactionResponse).toMatchObject({
      responseCode: '2',
      errors: [{ errorCode: '2', errorText: 'This transaction has been declined.' }],
    });
    expect(answer.messages.message[0]?.code).toBe('E00027');
  });

  it('turns whole-dollar amounts on card 4222222222222 into response reason codes', async () => {
    const trigger = { number: SANDBOX.triggerCard };
    const avs = await gateway.charge(charge(2700, trigger));
    expect(avs.answer.transactionResponse.errors?.[0]).toEqual({
      errorCode: '27',
      errorText:
        'The transaction has been declined because of an AVS mismatch. The address provided does not match billing address of cardholder.',
    });
    const held = await gateway.charge(charge(25200, trigger));
    expect(held.answer.transactionResponse.responseCode).toBe('4');
    const approved = await gateway.charge(charge(2750, trigger));
    expect(approved.answer.transactionResponse.responseCode).toBe('1');
  });

  it('reports AVS ZIPs and card codes without declining', async () => {
    const { answer } = await gateway.charge(charge(1000, { zip: '46205', cvv: '901' }));
    expect(answer.transactionResponse).toMatchObject({
      responseCode: '1',
      avsResultCode: 'N',
      cvvResultCode: 'N',
    });
  });

  it('stores a profile that keeps its card’s triggers, and refuses one it does not know', async () => {
    const { profile } = await gateway.charge(
      charge(999, { number: SANDBOX.triggerCard, createProfile: true }),
    );
    if (!profile) throw new Error('no profile');
    const renewal = await gateway.chargeProfile({
      amountCents: 200,
      invoiceNumber: 'RLSANDBOXPROFILE01',
      description: 'renewal',
      profile,
    });
    expect(renewal.answer.transactionResponse.responseCode).toBe('2');
    const unknown = await gateway.chargeProfile({
      amountCents: 200,
      invoiceNumber: 'RLSANDBOXPROFILE02',
      description: 'renewal',
      profile: { customerProfileId: '1', paymentProfileId: '2' },
    });
    expect(unknown.answer.transactionResponse.errors?.[0]?.errorCode).toBe('E00040');
  });

  it('loses the answer of a charge it took (ZIP 46290) and finds it by invoice afterwards', async () => {
    const request = charge(1500, { zip: SANDBOX.lostAnswerZip, createProfile: true });
    const error = await gateway.charge(request).catch((e: unknown) => e);
    expect((error as GatewayError).outcome).toBe('unknown');
    const found = await gateway.findByInvoice(request.invoiceNumber);
    expect(found).toMatchObject({ status: 'approved', amountCents: 1500 });
    expect(found?.profile?.customerProfileId).toMatch(/^\d+$/);
  });

  it('times out without a record (ZIP 46291) and cannot be reached (ZIP 46292)', async () => {
    const timeout = charge(1500, { zip: SANDBOX.timeoutZip });
    expect(((await gateway.charge(timeout).catch((e: unknown) => e)) as GatewayError).outcome).toBe(
      'unknown',
    );
    expect(await gateway.findByInvoice(timeout.invoiceNumber)).toBeNull();
    const unreachable = charge(1500, { zip: SANDBOX.unreachableZip });
    expect(
      ((await gateway.charge(unreachable).catch((e: unknown) => e)) as GatewayError).outcome,
    ).toBe('not-charged');
  });
});
