// @vitest-environment jsdom
import { PAYMENT_MESSAGES, SPEC_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, type InitialEntry } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequireToken } from '../features/auth/guards.tsx';
import { clearSession } from '../features/auth/session.ts';
import { stubApi } from '../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
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
  vi.unstubAllGlobals();
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

describe('LoginRoute focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the error when a sign-in is refused, not to the top of the page', async () => {
    const held = heldAnswer();
    stubApi({ '/api/Auth/login': held.answer });
    renderLogin('/login');
    fireEvent.change(screen.getByLabelText(/^E-mail/), { target: { value: 'ann@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'Wrong!pass1' } });

    await pressAndLoseFocus(screen.getByRole('button', { name: 'Sign In' }));
    held.release(jsonResponse(401, { message: 'The e-mail or password is wrong.' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The e-mail or password is wrong.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });
});
