import { describe, expect, it } from 'vitest';
import {
  cardBrandOf,
  cvvFits,
  digitsOf,
  expiryInFuture,
  lastFour,
  parseExpiry,
  passesAbaChecksum,
  passesLuhn,
} from './card.ts';

/** Authorize.Net's sandbox test cards. */
const TEST_CARDS = {
  Visa: '4111111111111111',
  'Master Card': '5424000000000015',
  'American Express': '370000000000002',
  Discover: '6011000000000012',
} as const;

describe('digitsOf and lastFour', () => {
  it('drops the spaces and dashes people type', () => {
    expect(digitsOf('4111 1111-1111 1111')).toBe('4111111111111111');
  });

  it('keeps only the last four digits', () => {
    expect(lastFour('4111 1111 1111 1234')).toBe('1234');
  });
});

describe('passesLuhn', () => {
  it.each(Object.entries(TEST_CARDS))('accepts the %s test card', (_brand, number) => {
    expect(passesLuhn(number)).toBe(true);
  });

  it.each([
    ['a wrong check digit', '4111111111111112'],
    ['a transposition', '4111111111111121'],
    ['too few digits', '41111111111'],
    ['too many digits', '41111111111111111111'],
    ['spaces', '4111 1111 1111 1111'],
    ['letters', '411111111111111a'],
    ['nothing', ''],
  ])('refuses %s', (_label, number) => {
    expect(passesLuhn(number)).toBe(false);
  });
});

describe('cardBrandOf', () => {
  it.each(Object.entries(TEST_CARDS))('knows the %s test card', (brand, number) => {
    expect(cardBrandOf(number)).toBe(brand);
  });

  it.each([
    ['Master Card', '2221000000000009'],
    ['Visa', '4222222222222'],
    ['Discover', '6500000000000002'],
    ['American Express', '340000000000009'],
  ])('knows a %s number from its range: %s', (brand, number) => {
    expect(cardBrandOf(number)).toBe(brand);
  });

  it('answers null for a brand RateLens does not take (JCB, Diners)', () => {
    expect(cardBrandOf('3530111333300000')).toBeNull();
    expect(cardBrandOf('36438999960016')).toBeNull();
  });
});

describe('cvvFits', () => {
  it('wants 4 digits for American Express', () => {
    expect(cvvFits('1234', 'American Express')).toBe(true);
    expect(cvvFits('123', 'American Express')).toBe(false);
  });

  it('takes 3 digits for the other brands', () => {
    for (const brand of ['Visa', 'Master Card', 'Discover'] as const)
      expect(cvvFits('123', brand), brand).toBe(true);
  });

  it('refuses 4 digits for the brands that print 3', () => {
    for (const brand of ['Visa', 'Master Card', 'Discover'] as const)
      expect(cvvFits('1234', brand), brand).toBe(false);
  });

  it.each(['12', '12345', '12a', ''])('refuses %j', (cvv) => {
    expect(cvvFits(cvv, 'Visa')).toBe(false);
    expect(cvvFits(cvv, 'American Express')).toBe(false);
  });
});

describe('parseExpiry', () => {
  it('reads MM/YYYY', () => {
    expect(parseExpiry('01/2030')).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry(' 12/2031 ')).toEqual({ month: 12, year: 2031 });
  });

  it.each(['1/2030', '13/2030', '00/2030', '01/30', '01-2030', '2030/01', ''])(
    'refuses %j',
    (text) => {
      expect(parseExpiry(text)).toBeNull();
    },
  );
});

describe('expiryInFuture', () => {
  const now = new Date('2026-05-31T23:30:00Z');

  it('accepts a card expiring this month, through its last day', () => {
    expect(expiryInFuture({ month: 5, year: 2026 }, now)).toBe(true);
  });

  it('refuses a card that expired last month', () => {
    expect(expiryInFuture({ month: 4, year: 2026 }, now)).toBe(false);
  });

  it('compares across a year boundary', () => {
    const january = new Date('2027-01-10T00:00:00Z');
    expect(expiryInFuture({ month: 12, year: 2026 }, january)).toBe(false);
    expect(expiryInFuture({ month: 1, year: 2027 }, january)).toBe(true);
  });

  it('refuses an expiry more than 20 years ahead', () => {
    expect(expiryInFuture({ month: 1, year: 2046 }, now)).toBe(true);
    expect(expiryInFuture({ month: 1, year: 2047 }, now)).toBe(false);
  });
});

describe('passesAbaChecksum', () => {
  it('accepts a real routing number', () => {
    expect(passesAbaChecksum('121042882')).toBe(true);
    expect(passesAbaChecksum('011000015')).toBe(true);
  });

  it.each([
    ['a wrong check digit', '121042883'],
    ['all zeros', '000000000'],
    ['8 digits', '12104288'],
    ['10 digits', '1210428820'],
    ['letters', '12104288a'],
  ])('refuses %s', (_label, routingNumber) => {
    expect(passesAbaChecksum(routingNumber)).toBe(false);
  });
});
