import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

function type(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

/** Fills in the billing section of the payment form. */
export function fillBilling(zipcode = '35203') {
  type(/^First Name/, 'Ann');
  type(/^Last Name/, 'Example');
  type(/^Address/, '1 Main St');
  type(/^City/, 'Birmingham');
  type(/^State/, 'AL');
  type(/^Zip/, zipcode);
}

/** Fills in the card tab with Authorize.Net's approving test Visa. */
export function fillCard(cardNumber = '4111111111111111') {
  type(/^Card Type/, 'Visa');
  type(/^Name on Card/, 'Ann Example');
  type(/^Card Number/, cardNumber);
  type(/^Expiry Date/, '12/2030');
  type(/^CVV/, '123');
}

/** Chooses the echeck tab and fills it in. */
export function fillEcheck() {
  fireEvent.click(screen.getByRole('tab', { name: 'Echeck Payment' }));
  type(/^Routing Number/, '121042882');
  type(/^Account Number/, '123456789');
  type(/^Account Holder Name/, 'Ann Example');
  type(/^Bank Name/, 'Wells Fargo');
}

export async function makePayment() {
  const button = screen.getByRole('button', { name: 'Make Payment' });
  await waitFor(() => expect(button).toHaveProperty('disabled', false));
  fireEvent.click(button);
}
