// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { ForgotPasswordRoute } from './forgot-password.tsx';

vi.mock('../shared/bot-check.tsx', () => import('../test/bot-check.tsx'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ForgotPasswordRoute focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the answer once the link is sent, though the button waits for a new bot check', async () => {
    const held = heldAnswer();
    stubApi({ '/api/auth/ForgetPassword': held.answer });
    renderWithProviders(<ForgotPasswordRoute />, { route: '/forgotPassword' });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ann@example.com' } });
    const send = screen.getByRole('button', { name: 'Send reset link' });
    await waitFor(() => expect(send).toHaveProperty('disabled', false));

    await pressAndLoseFocus(send);
    held.release(jsonResponse(200, { isSuccess: true, message: 'A reset link is on its way.' }));

    const answer = await screen.findByText('A reset link is on its way.');
    await waitFor(() => expect(document.activeElement).toBe(answer.closest('[role="status"]')));
    expect(send).toHaveProperty('disabled', true);
  });
});
