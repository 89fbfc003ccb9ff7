// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { ResetPasswordRoute } from './reset-password.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ResetPasswordRoute focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the answer once the password is reset and the emptied form is closed', async () => {
    const held = heldAnswer();
    stubApi({ '/api/auth/ResetPassword': held.answer });
    renderWithProviders(<ResetPasswordRoute />, {
      route: '/resetPassword?email=ann%40example.com&token=t-1',
    });
    fireEvent.change(screen.getByLabelText(/^New Password/), { target: { value: 'Str0ng!pass' } });
    fireEvent.change(screen.getByLabelText(/^Confirm Password/), {
      target: { value: 'Str0ng!pass' },
    });
    const reset = screen.getByRole('button', { name: 'Reset password' });
    await waitFor(() => expect(reset).toHaveProperty('disabled', false));

    await pressAndLoseFocus(reset);
    held.release(jsonResponse(200, { isSuccess: true, message: 'Your password was reset.' }));

    const answer = await screen.findByText('Your password was reset.', { exact: false });
    await waitFor(() => expect(document.activeElement).toBe(answer.closest('[role="status"]')));
    expect(reset).toHaveProperty('disabled', true);
  });
});
