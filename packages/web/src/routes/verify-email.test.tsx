// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../features/auth/session.ts';
import { stubApi } from '../test/api-stub.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { VerifyEmailRoute } from './verify-email.tsx';

function stubVerification(message: string) {
  stubApi({
    '/api/auth/EmailVerifyUserAsync': jsonResponse(200, { isSuccess: true, message }),
  });
}

beforeEach(() => signInAs('user'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('VerifyEmailRoute', () => {
  it('says what the server did when it sent the verification e-mail', async () => {
    const sent =
      'We have sent a verification link to ann@example.com. Please open it to verify your e-mail address.';
    stubVerification(sent);
    renderWithProviders(<VerifyEmailRoute />, { route: '/verifyEmail' });

    expect(await screen.findByText(sent)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your profile' })).toBeTruthy();
  });

  it('says only that the address is verified when it already is: no e-mail was sent', async () => {
    stubVerification('Your email address is already verified.');
    renderWithProviders(<VerifyEmailRoute />, { route: '/verifyEmail' });

    expect(await screen.findByText('Your email address is already verified.')).toBeTruthy();
    expect(screen.queryByText(/We have sent/)).toBeNull();
  });
});
