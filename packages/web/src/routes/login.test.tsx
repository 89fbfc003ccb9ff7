// @vitest-environment jsdom
import { PAYMENT_MESSAGES, SPEC_MESSAGES } from '@ratelens/core';
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes, type InitialEntry } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { RequireToken } from '../features/auth/guards.tsx';
import { clearSession } from '../features/auth/session.ts';
import { renderWithProviders } from '../test/render.tsx';
import { LoginRoute } from './login.tsx';
import { ACCOUNT_CREATED_NOTICE } from './registration.tsx';

function renderLogin(route: InitialEntry) {
  renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      <Route
        path="/profile"
        element={
          <RequireToken>
            <p>Profile</p>
          </RequireToken>
        }
      />
    </Routes>,
    { route },
  );
}

/** The colour Mantine gives the alert: its tone (form-alert.tsx). */
function alertColour(alert: HTMLElement): string {
  return alert.closest<HTMLElement>('.mantine-Alert-root')?.getAttribute('style') ?? '';
}

afterEach(() => {
  cleanup();
  clearSession();
});

describe('LoginRoute', () => {
  it("says 'You need to login first', as information, to a visitor sent from a screen that needs it", async () => {
    renderLogin('/profile');

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toBe(SPEC_MESSAGES.loginFirst);
    expect(alertColour(notice)).toContain('indigo');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
  });

  it('shows why a purchase needs a sign-in as information, not as a success', async () => {
    renderLogin({
      pathname: '/login',
      state: { notice: PAYMENT_MESSAGES.signInToPurchase, tone: 'info' },
    });

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toBe(PAYMENT_MESSAGES.signInToPurchase);
    expect(alertColour(notice)).toContain('indigo');
  });

  it('shows a new account as a success', async () => {
    renderLogin({ pathname: '/login', state: { notice: ACCOUNT_CREATED_NOTICE } });

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toBe(ACCOUNT_CREATED_NOTICE);
    expect(alertColour(notice)).toContain('teal');
  });
});
