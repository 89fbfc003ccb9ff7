import type { PaymentResponse, StateItem, Subscription, SubscriptionCard } from '@ratelens/core';

export const STATES: StateItem[] = [
  { stateID: 1, stateName: 'Alabama', stateCode: 'AL' },
  { stateID: 2, stateName: 'Alaska', stateCode: 'AK' },
];

/** A state plan as the tiles call answers it for Alabama (3 files at $25.00). */
export function plan(overrides: Partial<Subscription> = {}): Subscription {
  const base: Subscription = {
    subscriptionID: 1,
    subscriptionTitle: 'State Negotiated Rates',
    subscriptionType: 'Annual',
    accessType: 'State',
    price: 25,
    totalPrice: 75,
    priceCents: 2500,
    totalPriceCents: 7500,
    filterStates: 'Alabama',
    stateCode: 'AL',
    totalFilesCountSpecificState: 3,
    totalFilesCountAllStates: 40,
    hospitalCount: 2,
    totalHospitalCountAllStates: 30,
    priceDescription: 'Every hospital file of the state for a year',
    searchCount: null,
    installmentEligible: true,
    maintenanceFeeCents: 500,
    negotiable: false,
    includesDataFeed: true,
    termMonths: 12,
    customOfferId: null,
  };
  return { ...base, ...overrides };
}

export const MONTHLY_PLAN = plan({
  subscriptionID: 3,
  subscriptionTitle: 'State Negotiated Rates, Monthly',
  subscriptionType: 'Monthly',
  price: 4,
  totalPrice: 12,
  priceCents: 400,
  totalPriceCents: 1200,
  installmentEligible: false,
  maintenanceFeeCents: 0,
  includesDataFeed: false,
  termMonths: 1,
});

export const ALL_STATES_PLAN = plan({
  subscriptionID: 4,
  subscriptionTitle: 'All States',
  accessType: 'All States',
  price: 0,
  totalPrice: 0,
  priceCents: 0,
  totalPriceCents: 0,
  filterStates: 'All States',
  stateCode: null,
  installmentEligible: false,
  maintenanceFeeCents: 0,
  negotiable: true,
});

export function searchPack(id: number, searches: number, cents: number): Subscription {
  return plan({
    subscriptionID: id,
    subscriptionTitle: `Individual Search ${searches}`,
    subscriptionType: 'Individual Search',
    accessType: 'National',
    price: cents / 100,
    totalPrice: cents / 100,
    priceCents: cents,
    totalPriceCents: cents,
    filterStates: 'National',
    stateCode: null,
    searchCount: searches,
    priceDescription: `${searches} rate searches in any state within a year`,
    installmentEligible: false,
    maintenanceFeeCents: 0,
    includesDataFeed: false,
  });
}

export const ALABAMA_PLANS: Subscription[] = [
  plan(),
  MONTHLY_PLAN,
  ALL_STATES_PLAN,
  searchPack(6, 15, 2499),
  searchPack(5, 5, 999),
];

export function approved(amountCents: number): PaymentResponse {
  return {
    transactionResponse: { responseCode: '1', transId: '60000001', accountNumber: 'XXXX1111' },
    messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
    orderId: 'order-1',
    orderStatus: 'paid',
    amountCents,
  };
}

export function declined(errorText: string, amountCents = 0): PaymentResponse {
  return {
    transactionResponse: {
      responseCode: '2',
      errors: [{ errorCode: '2', errorText }],
    },
    messages: {
      resultCode: 'Error',
      message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }],
    },
    orderId: 'order-2',
    orderStatus: 'declined',
    amountCents,
  };
}

export function subscriptionCard(overrides: Partial<SubscriptionCard> = {}): SubscriptionCard {
  return {
    state: 'Alabama',
    individualSearch: false,
    subscriptiontype: 'Annual',
    subscriptionTitle: 'State Negotiated Rates',
    expireDate: '2099-11-21T00:00:00.000Z',
    totalSearchCount: 0,
    remaningSearchCount: 0,
    mySubscriptionID: '5b0c3f4e-9a1d-4c1b-8f1e-2d3c4b5a6978',
    autoRenewal: false,
    installment: false,
    paymentMethod: 'Visa ending 1111',
    ...overrides,
  };
}
