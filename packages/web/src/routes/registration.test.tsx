// @vitest-environment jsdom
import { PASSWORD_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { RegistrationForm } from './registration.tsx';

vi.mock('../shared/bot-check.tsx', () => import('../test/bot-check.tsx'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function type(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('RegistrationForm', () => {
  it('lists every password rule a weak password breaks, together', async () => {
    renderWithProviders(<RegistrationForm />, { route: '/registration' });

    type(/^Password/, 'abc');

    await waitFor(() => {
      expect(screen.getByText(PASSWORD_MESSAGES.uppercase)).toBeTruthy();
    });
    expect(screen.getByText(PASSWORD_MESSAGES.minLength)).toBeTruthy();
    expect(screen.getByText(PASSWORD_MESSAGES.digit)).toBeTruthy();
    expect(screen.getByText(PASSWORD_MESSAGES.special)).toBeTruthy();
    expect(screen.queryByText(PASSWORD_MESSAGES.lowercase)).toBeNull();
  });

  it('says when the confirmation differs from the password', async () => {
    renderWithProviders(<RegistrationForm />, { route: '/registration' });

    type(/^Password/, 'Str0ng!pass');
    type(/^Confirm Password/, 'Str0ng!pas');

    expect(await screen.findByText(PASSWORD_MESSAGES.mismatch)).toBeTruthy();
  });

  it('rejects an e-mail address without a domain', async () => {
    renderWithProviders(<RegistrationForm />, { route: '/registration' });

    type(/^Email/, 'ann@');

    expect(await screen.findByText('Email is not valid.')).toBeTruthy();
  });

  it('keeps SIGN UP disabled until the terms are accepted', async () => {
    renderWithProviders(<RegistrationForm />, { route: '/registration' });
    const signUp = screen.getByRole('button', { name: 'SIGN UP' });

    type(/^Email/, 'ann@example.com');
    type(/^Password/, 'Str0ng!pass');
    type(/^Confirm Password/, 'Str0ng!pass');
    await waitFor(() => expect(screen.queryByText(PASSWORD_MESSAGES.mismatch)).toBeNull());
    expect(signUp).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }));

    await waitFor(() => expect(signUp).toHaveProperty('disabled', false));
  });
});

describe('RegistrationForm focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the error when the sign-up is refused, not to the top of the page', async () => {
    const held = heldAnswer();
    stubApi({ '/api/Auth/Register': held.answer });
    renderWithProviders(<RegistrationForm />, { route: '/registration' });
    type(/^Email/, 'ann@example.com');
    type(/^Password/, 'Str0ng!pass');
    type(/^Confirm Password/, 'Str0ng!pass');
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }));
    const signUp = screen.getByRole('button', { name: 'SIGN UP' });
    await waitFor(() => expect(signUp).toHaveProperty('disabled', false));

    await pressAndLoseFocus(signUp);
    held.release(jsonResponse(409, { message: 'This e-mail already has an account.' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This e-mail already has an account.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });
});
