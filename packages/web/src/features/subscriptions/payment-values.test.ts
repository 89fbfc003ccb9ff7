import { describe, expect, it } from 'vitest';
import {
  REQUIRED_MESSAGE,
  cardProblems,
  cvvHint,
  emptyPaymentValues,
  paymentDetailsOf,
  paymentProblems,
  type PaymentFormValues,
} from './payment-values.ts';

const NOW = new Date('2026-11-21T12:00:00Z');

function filled(): PaymentFormValues {
  const values = emptyPaymentValues('ann@example.com');
  values.card = {
    cardType: 'Visa',
    cardName: 'Ann Example',
    cardNumber: '4111 1111 1111 1111',
    expiryDate: '12/2030',
    cvv: '123',
  };
  values.echeck = {
    routingNumber: '121042882',
    accountNumber: '123456789',
    accountName: 'Ann Example',
    bankName: 'Wells Fargo',
    accountType: 'Savings',
  };
  values.billing = {
    firstName: 'Ann',
    lastName: 'Example',
    address: '1 Main St',
    city: 'Birmingham',
    state: 'AL',
    zipcode: '35203',
    email: 'ann@example.com',
  };
  return values;
}

describe('cardProblems', () => {
  it('accepts a good card', () => {
    expect(cardProblems(filled().card, NOW)).toEqual({});
  });

  it('says a number that fails the Luhn check is not valid, whatever else is missing', () => {
    const card = { ...emptyPaymentValues('').card, cardNumber: '4111 1111 1111 1112' };
    expect(cardProblems(card, NOW).cardNumber).toBe('Card number is not valid.');
  });

  it('says when the number is another brand than the chosen card type', () => {
    const card = { ...filled().card, cardType: 'Master Card' };
    expect(cardProblems(card, NOW).cardNumber).toBe('Card number is not a Master Card number.');
  });

  it('checks the expiry format and refuses an expired card', () => {
    expect(cardProblems({ ...filled().card, expiryDate: '2030-12' }, NOW).expiryDate).toBe(
      'Expiry date must be MM/YYYY.',
    );
    expect(cardProblems({ ...filled().card, expiryDate: '10/2026' }, NOW).expiryDate).toBe(
      'The card has expired.',
    );
  });

  it('says "an" before American Express', () => {
    const card = { ...filled().card, cardType: 'American Express', cvv: '1234' };
    expect(cardProblems(card, NOW).cardNumber).toBe(
      'Card number is not an American Express number.',
    );
  });

  it('wants 4 CVV digits for American Express', () => {
    const amex = {
      ...filled().card,
      cardType: 'American Express',
      cardNumber: '378282246310005',
    };
    expect(cardProblems(amex, NOW).cvv).toBe('CVV must be 4 digits.');
  });
});

describe('cvvHint', () => {
  it("is the spec's hint for the cards with a 3-digit code on the back", () => {
    for (const type of ['', 'Visa', 'Master Card', 'Discover'])
      expect(cvvHint(type)).toBe('3 digits code on back side of the card');
  });

  it('asks for the 4 digits on the front of an American Express card', () => {
    expect(cvvHint('American Express')).toBe('4 digits code on front side of the card');
  });
});

describe('paymentProblems', () => {
  it('has nothing to say about a complete card payment', () => {
    expect(paymentProblems(filled(), 'card', NOW)).toEqual({});
  });

  it('checks only the fields of the chosen method', () => {
    const values = filled();
    values.card = emptyPaymentValues('').card;
    expect(paymentProblems(values, 'echeck', NOW)).toEqual({});
  });

  it("says 'This field is required' for an empty field", () => {
    const values = filled();
    values.billing.city = '  ';
    values.echeck.bankName = '';
    expect(paymentProblems(values, 'echeck', NOW)).toEqual({
      billing: { city: REQUIRED_MESSAGE },
      echeck: { bankName: REQUIRED_MESSAGE },
    });
  });

  it("names a field by its label in core's messages", () => {
    const values = filled();
    values.billing.zipcode = '3520';
    expect(paymentProblems(values, 'card', NOW).billing?.zipcode).toBe(
      'Zip must be a 5-digit ZIP code.',
    );
  });

  it('refuses a routing number that fails the ABA checksum', () => {
    const values = filled();
    values.echeck.routingNumber = '121042883';
    expect(paymentProblems(values, 'echeck', NOW).echeck?.routingNumber).toBe(
      'Routing number is not valid.',
    );
  });
});

describe('paymentDetailsOf', () => {
  it("sends the card number as digits, parsed by core's schema", () => {
    expect(paymentDetailsOf(filled(), 'card')).toMatchObject({
      method: 'card',
      paymentDetails: { cardNumber: '4111111111111111', cardType: 'Visa' },
      billingAddress: { zipcode: '35203' },
    });
  });

  it('sends the chosen account type of an echeck', () => {
    expect(paymentDetailsOf(filled(), 'echeck').paymentDetails).toMatchObject({
      routingNumber: '121042882',
      accountType: 'Savings',
    });
  });
});
