// @vitest-environment jsdom
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../auth/session.ts';
import { stubApi } from '../../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/sign-in.ts';
import { CouponForm } from './coupon-form.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('CouponForm focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the answer when a code is looked up, not to the top of the page', async () => {
    signInAs('user');
    const held = heldAnswer();
    stubApi({ '/api/Master/getallcoupons': held.answer });
    renderWithProviders(
      <CouponForm coupon={null} hasAnnualItem onChange={vi.fn()} disabled={false} />,
    );
    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'NOSUCH' } });

    await pressAndLoseFocus(screen.getByRole('button', { name: 'Apply' }));
    held.release(jsonResponse(200, []));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(PAYMENT_MESSAGES.couponInvalid);
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });
});
