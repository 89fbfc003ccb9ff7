import { describe, expect, it } from 'vitest';
import {
  BillingAddressSchema,
  CartItemSchema,
  DONATION_AMOUNT_PATTERN,
  DonationAmountSchema,
  EcheckDetailsSchema,
  cardDetailsSchema,
} from './contracts.ts';
import { CouponInputSchema } from './admin-contracts.ts';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('DonationAmountSchema', () => {
  it.each([
    ['10', 1000],
    ['10.5', 1050],
    ['10.55', 1055],
    ['0.5', 50],
    [' 25 ', 2500],
    [10.5, 1050],
  ])('accepts %j as %i cents', (amount, cents) => {
    expect(DonationAmountSchema.parse(amount)).toBe(cents);
  });

  it.each(['010', '10.555', '-1', 'abc', '1e3', '', '10.', '.5'])(
    'refuses %j by its pattern',
    (amount) => {
      expect(DONATION_AMOUNT_PATTERN.test(amount.trim())).toBe(false);
      expect(messagesOf(DonationAmountSchema.safeParse(amount))).toContain(
        'Amount must be a positive number with at most two decimals.',
      );
    },
  );

  it('refuses zero', () => {
    expect(messagesOf(DonationAmountSchema.safeParse('0'))).toEqual([
      'Amount must be more than $0.',
    ]);
    expect(messagesOf(DonationAmountSchema.safeParse('0.00'))).toEqual([
      'Amount must be more than $0.',
    ]);
  });

  it('refuses more than $100,000.00', () => {
    expect(DonationAmountSchema.parse('100000')).toBe(10_000_000);
    expect(messagesOf(DonationAmountSchema.safeParse('100000.01'))).toEqual([
      'Amount must not be more than $100,000.00.',
    ]);
    // Too many digits to read as cents was said as "more than $0".
    for (const huge of ['1000000000000', 1e12])
      expect(messagesOf(DonationAmountSchema.safeParse(huge))).toEqual([
        'Amount must not be more than $100,000.00.',
      ]);
  });

  it('asks for the amount when it is missing', () => {
    expect(messagesOf(DonationAmountSchema.safeParse(undefined))).toEqual(['Amount is required.']);
  });
});

describe('cardDetailsSchema', () => {
  const now = () => new Date('2026-05-15T12:00:00Z');
  const schema = cardDetailsSchema(now);
  const visa = {
    cardType: 'Visa',
    cardName: 'Ada Lovelace',
    cardNumber: '4111 1111 1111 1111',
    expiryDate: '05/2026',
    cvv: '123',
  };
  /** The message of each failing field, keyed by its path. */
  const errorsOf = (card: Record<string, unknown>) =>
    Object.fromEntries(
      (schema.safeParse(card).error?.issues ?? []).map((issue) => [
        issue.path.join('.'),
        issue.message,
      ]),
    );

  it('accepts a valid card expiring this month and keeps only its digits', () => {
    expect(schema.parse(visa).cardNumber).toBe('4111111111111111');
  });

  it('accepts an American Express card with a 4-digit CVV', () => {
    const amex = {
      ...visa,
      cardType: 'American Express',
      cardNumber: '370000000000002',
      cvv: '1234',
    };
    expect(schema.safeParse(amex).success).toBe(true);
  });

  it.each([
    [{ cardNumber: '4111111111111112' }, 'cardNumber', 'Card number is not valid.'],
    [{ cardNumber: '5424000000000015' }, 'cardNumber', 'Card number is not a Visa number.'],
    [
      { cardType: 'American Express', cvv: '1234' },
      'cardNumber',
      'Card number is not an American Express number.',
    ],
    [{ expiryDate: '5/2026' }, 'expiryDate', 'Expiry date must be MM/YYYY.'],
    [{ expiryDate: '04/2026' }, 'expiryDate', 'The card has expired.'],
    [{ cvv: '12' }, 'cvv', 'CVV must be 3 digits.'],
    [
      { cardType: 'American Express', cardNumber: '370000000000002', cvv: '123' },
      'cvv',
      'CVV must be 4 digits.',
    ],
    [{ cardName: '   ' }, 'cardName', 'cardName is required.'],
    [
      { cardType: 'Diners Club' },
      'cardType',
      'cardType must be one of Visa, Master Card, Discover, American Express.',
    ],
    [{ cardNumber: undefined }, 'cardNumber', 'cardNumber is required.'],
  ])('refuses %j with the message for %s', (change, field, message) => {
    expect(errorsOf({ ...visa, ...change })[field]).toBe(message);
  });
});

describe('EcheckDetailsSchema', () => {
  const check = {
    routingNumber: '121042882',
    accountNumber: '123456789',
    accountName: 'Ada Lovelace',
    bankName: 'Wells Fargo',
    accountType: '',
  };

  it('takes Checking when the legacy form sends the account type blank', () => {
    expect(EcheckDetailsSchema.parse(check).accountType).toBe('Checking');
    expect(EcheckDetailsSchema.parse({ ...check, accountType: 'Savings' }).accountType).toBe(
      'Savings',
    );
  });

  it('refuses a routing number that fails the ABA checksum', () => {
    expect(
      messagesOf(EcheckDetailsSchema.safeParse({ ...check, routingNumber: '121042883' })),
    ).toEqual(['Routing number is not valid.']);
  });

  it('refuses an account number that is not 4 to 17 digits', () => {
    expect(messagesOf(EcheckDetailsSchema.safeParse({ ...check, accountNumber: '123' }))).toEqual([
      'Account number must be 4 to 17 digits.',
    ]);
  });
});

describe('BillingAddressSchema', () => {
  const billing = {
    firstName: 'Ellen',
    lastName: 'Johnson',
    address: '14 Main Street',
    city: 'Pecan Springs',
    state: 'TX',
    zipcode: '78666',
    email: 'ellen@example.com',
  };

  it("takes values up to Authorize.Net's limits", () => {
    const longest = {
      ...billing,
      firstName: 'F'.repeat(50),
      lastName: 'L'.repeat(50),
      address: 'A'.repeat(60),
      city: 'C'.repeat(40),
      state: 'S'.repeat(40),
    };
    expect(BillingAddressSchema.parse(longest)).toEqual(longest);
  });

  it('refuses, naming the field, a value the gateway would cut short', () => {
    const result = BillingAddressSchema.safeParse({
      ...billing,
      firstName: 'F'.repeat(51),
      lastName: 'L'.repeat(51),
      address: 'A'.repeat(61),
      city: 'C'.repeat(41),
      state: 'S'.repeat(41),
    });
    expect(messagesOf(result)).toEqual([
      'firstName must not be more than 50 characters.',
      'lastName must not be more than 50 characters.',
      'address must not be more than 60 characters.',
      'city must not be more than 40 characters.',
      'state must not be more than 40 characters.',
    ]);
  });
});

describe('CartItemSchema', () => {
  it('drops every price field the client sends', () => {
    const item = CartItemSchema.parse({
      subscriptionID: '3',
      state: 'AL',
      price: 1,
      totalPrice: 1,
      actualPrice: 0,
      InstallmentAmount: 0,
    });
    expect(item).toEqual({ subscriptionID: 3, state: 'AL', IsInstalmentPayment: false });
  });

  it('refuses a customOfferId no offer can have (the id is a 32-bit integer)', () => {
    const result = CartItemSchema.safeParse({ subscriptionID: 1, customOfferId: 2_147_483_648 });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'customOfferId must be a custom offer id.',
    ]);
    expect(CartItemSchema.parse({ subscriptionID: 1, customOfferId: 2_147_483_647 })).toMatchObject(
      {
        customOfferId: 2_147_483_647,
      },
    );
  });
});

describe('CouponInputSchema', () => {
  it.each(['0000-01-01T00:00:00Z', '2030-01-01T00:00:00+16:00', '2030-01-01T00:00:00-23:59'])(
    'refuses %s, which PostgreSQL cannot store',
    (validTo) => {
      const result = CouponInputSchema.safeParse({ code: 'SAVE10', percent: 10, validTo });
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['validTo']);
    },
  );

  it('takes an offset up to 15:59 hours', () => {
    for (const validTo of ['2030-01-01T00:00:00+15:59', '2030-01-01T00:00:00-12:00'])
      expect(CouponInputSchema.safeParse({ code: 'SAVE10', percent: 10, validTo }).success).toBe(
        true,
      );
  });
});
