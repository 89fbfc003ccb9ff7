import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthorizeNetGateway } from './authorizenet-gateway.ts';
import { startFakeAuthorizeNet, type FakeAuthorizeNet } from './fake-authorizenet.ts';
import { GatewayError, type ChargeRequest } from './gateway.ts';

const credentials = { name: 'login-id', transactionKey: 'Key1234567890abc' };
let fake: FakeAuthorizeNet;
let gateway: AuthorizeNetGateway;

beforeAll(async () => {
  fake = await startFakeAuthorizeNet(credentials);
  gateway = new AuthorizeNetGateway({
    url: fake.url,
    apiLoginId: credentials.name,
    transactionKey: credentials.transactionKey,
    timeoutMs: 300,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

let invoice = 0;
function cardCharge(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  invoice += 1;
  return {
    amountCents: 1234,
    invoiceNumber: `RLTEST${String(invoice).padStart(6, '0')}`,
    description: 'RateLens: Individual Search 5',
    payment: {
      kind: 'card',
      brand: 'Visa',
      number: '4111111111111111',
      expiry: { month: 12, year: 2030 },
      cvv: '123',
    },
    billTo: {
      firstName: 'Ellen',
      lastName: 'Johnson',
      address: '14 Main Street',
      city: 'Pecan Springs',
      state: 'TX',
      zip: '44628',
    },
    customer: { email: 'ellen@example.com' },
    createProfile: false,
    ...overrides,
  };
}

const declined = {
  transactionResponse: {
    responseCode: '2',
    authCode: '000000',
    transId: '60000000777',
    accountNumber: 'XXXX0027',
    accountType: 'Visa',
    errors: [{ errorCode: '2', errorText: 'This transaction has been declined.' }],
  },
  messages: {
    resultCode: 'Error',
    message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }],
  },
};

describe('the authorizenet gateway', () => {
  it('sends an authCaptureTransaction in the schema’s member order with the merchant credentials', async () => {
    await gateway.charge(cardCharge({ createProfile: true }));
    const [request] = fake.requests;
    expect(request?.name).toBe('createTransactionRequest');
    expect(Object.keys(request?.body ?? {})).toEqual([
      'merchantAuthentication',
      'refId',
      'transactionRequest',
    ]);
    expect(request?.body.merchantAuthentication).toEqual(credentials);
    const transaction = request?.body.transactionRequest as Record<string, unknown>;
    expect(Object.keys(transaction)).toEqual([
      'transactionType',
      'amount',
      'payment',
      'profile',
      'order',
      'customer',
      'billTo',
    ]);
    expect(transaction).toMatchObject({
      transactionType: 'authCaptureTransaction',
      amount: '12.34',
      payment: {
        creditCard: { cardNumber: '4111111111111111', expirationDate: '2030-12', cardCode: '123' },
      },
      profile: { createProfile: true },
      billTo: { zip: '44628', country: 'US' },
    });
  });

  it('reads an approval (after the byte-order mark) with the profile it created', async () => {
    const result = await gateway.charge(cardCharge({ createProfile: true }));
    expect(result.answer.transactionResponse).toMatchObject({
      responseCode: '1',
      accountNumber: 'XXXX1111',
      accountType: 'Visa',
    });
    expect(result.answer.messages.resultCode).toBe('Ok');
    expect(result.profile?.customerProfileId).toMatch(/^\d+$/);
    expect(result.profile?.paymentProfileId).toMatch(/^\d+$/);
    expect(result.answer.transactionResponse).not.toHaveProperty('transHash');
  });

  it('sends a bank account as an eCheck.Net WEB debit', async () => {
    const result = await gateway.charge(
      cardCharge({
        payment: {
          kind: 'bank',
          accountType: 'Savings',
          routingNumber: '121042882',
          accountNumber: '000123456789',
          nameOnAccount: 'Ellen Johnson',
          bankName: 'Wells Fargo',
        },
      }),
    );
    const transaction = fake.requests[0]?.body.transactionRequest as Record<string, unknown>;
    expect(transaction.payment).toEqual({
      bankAccount: {
        accountType: 'savings',
        routingNumber: '121042882',
        accountNumber: '000123456789',
        nameOnAccount: 'Ellen Johnson',
        echeckType: 'WEB',
        bankName: 'Wells Fargo',
      },
    });
    expect(result.answer.transactionResponse.accountType).toBe('eCheck');
  });

  it('passes a decline through with its error text', async () => {
    fake.answerNext({ body: declined });
    const result = await gateway.charge(cardCharge());
    expect(result.answer.transactionResponse.responseCode).toBe('2');
    expect(result.answer.transactionResponse.errors?.[0]?.errorText).toBe(
      'This transaction has been declined.',
    );
    expect(result.profile).toBeNull();
  });

  it('turns a request refused as a whole (bad credentials) into an error answer without a transaction', async () => {
    const wrong = new AuthorizeNetGateway({
      url: fake.url,
      apiLoginId: 'someone-else',
      transactionKey: 'WrongKey12345678',
      timeoutMs: 300,
    });
    const result = await wrong.charge(cardCharge());
    expect(result.answer.transactionResponse).toEqual({
      responseCode: '3',
      errors: [
        {
          errorCode: 'E00007',
          errorText: 'User authentication failed due to invalid authentication values.',
        },
      ],
    });
    expect(result.answer.messages.resultCode).toBe('Error');
  });

  it('charges a stored profile by its ids', async () => {
    const result = await gateway.chargeProfile({
      amountCents: 999,
      invoiceNumber: 'RLRENEWAL0000000001',
      description: 'RateLens subscription renewal',
      profile: { customerProfileId: '1501', paymentProfileId: '1901' },
    });
    const transaction = fake.requests[0]?.body.transactionRequest as Record<string, unknown>;
    expect(transaction).toEqual({
      transactionType: 'authCaptureTransaction',
      amount: '9.99',
      profile: { customerProfileId: '1501', paymentProfile: { paymentProfileId: '1901' } },
      order: { invoiceNumber: 'RLRENEWAL0000000001', description: 'RateLens subscription renewal' },
    });
    expect(result.answer.transactionResponse.responseCode).toBe('1');
  });

  it('gives up on a slow answer with an unknown outcome', async () => {
    fake.answerNext({ delayMs: 1500 });
    const error = await gateway.charge(cardCharge()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).outcome).toBe('unknown');
    expect((error as GatewayError).message).toContain('did not answer within 300 ms');
  });

  it('treats an HTTP error or an answer that is not JSON as an unknown outcome', async () => {
    fake.answerNext({ status: 503, body: 'Service Unavailable' }, { body: '<html>oops</html>' });
    for (let i = 0; i < 2; i += 1) {
      const error = await gateway.charge(cardCharge()).catch((e: unknown) => e);
      expect((error as GatewayError).outcome).toBe('unknown');
    }
  });

  it('knows nothing was charged when the gateway cannot be reached', async () => {
    const closed = await startFakeAuthorizeNet(credentials);
    await closed.close();
    const unreachable = new AuthorizeNetGateway({
      url: closed.url,
      apiLoginId: credentials.name,
      transactionKey: credentials.transactionKey,
      timeoutMs: 300,
    });
    const error = await unreachable.charge(cardCharge()).catch((e: unknown) => e);
    expect((error as GatewayError).outcome).toBe('not-charged');
  });

  it('finds the transaction of an invoice among the unsettled ones, even when the charge’s answer was lost', async () => {
    const request = cardCharge();
    fake.answerNext({ delayMs: 1500, recordApproved: true, body: declined });
    await expect(gateway.charge(request)).rejects.toBeInstanceOf(GatewayError);
    const found = await gateway.findByInvoice(request.invoiceNumber);
    expect(found).toMatchObject({
      status: 'approved',
      amountCents: 1234,
      accountNumber: 'XXXX1111',
    });
    const list = fake.requests.at(-1);
    expect(list?.name).toBe('getUnsettledTransactionListRequest');
    expect(list?.body).toMatchObject({
      sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
      paging: { limit: 1000, offset: 1 },
    });
  });

  it('answers null for an invoice the gateway never saw', async () => {
    expect(await gateway.findByInvoice('RLNEVERSENT000000000')).toBeNull();
  });
});
