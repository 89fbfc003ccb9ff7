// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession } from '../features/auth/session.ts';
import { readDonor, storeDonor } from '../features/donations/donation-session.ts';
import { addToCart, readCart, setCartCoupon } from '../features/subscriptions/cart.ts';
import { plan } from '../test/payments-fixtures.ts';
import { renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { ThankYouRoute } from './thank-you.tsx';

afterEach(() => {
  cleanup();
  clearSession();
});

describe('ThankYouRoute', () => {
  it('says thank you and clears all cart, coupon and donation data', () => {
    signInAs('user');
    addToCart('user-1', { plan: plan(), installment: false, stateId: 1 });
    setCartCoupon('user-1', { couponID: 1, couponCode: 'SAVE10', couponDiscountPerc: 10 });
    storeDonor({ email: 'donor@example.com', donationToken: 'token-1' });

    renderWithProviders(<ThankYouRoute />, { route: '/thankYou' });

    expect(screen.getByRole('heading', { name: 'Thank you', level: 1 })).toBeTruthy();
    expect(readCart('user-1')).toEqual({ lines: [], coupon: null });
    expect(readDonor()).toBeNull();
  });

  it('says nothing was charged for an order a coupon covered whole', () => {
    signInAs('user');
    renderWithProviders(
      <Routes>
        <Route path="/thankYou" element={<ThankYouRoute />} />
      </Routes>,
      {
        route: {
          pathname: '/thankYou',
          state: { kind: 'subscription', amountCents: 0, orderId: 'order-free' },
        },
      },
    );

    expect(screen.getByRole('status').textContent).toBe(
      'Your order is complete, and your subscription is active. Nothing was charged.',
    );
  });
});
