// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect, useImperativeHandle, type Ref } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BotCheckHandle } from '../shared/bot-check.tsx';
import { stubApi } from '../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { ForgotPasswordRoute } from './forgot-password.tsx';

// The ALTCHA widget needs Web Workers and a challenge server. Stand-in: a bot check solved at
// once, which forgets its payload on reset, as the real one does while it solves the next.
vi.mock('../shared/bot-check.tsx', () => ({
  BotCheck: ({
    onPayload,
    ref,
  }: {
    onPayload: (payload: string | null) => void;
    ref?: Ref<BotCheckHandle>;
  }) => {
    useEffect(() => onPayload('solved-payload'), [onPayload]);
    useImperativeHandle(ref, () => ({ reset: () => onPayload(null) }), [onPayload]);
    return null;
  },
}));

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
