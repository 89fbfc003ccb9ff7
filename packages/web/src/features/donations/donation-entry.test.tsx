// @vitest-environment jsdom
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi, type Answer } from '../../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../../test/render.tsx';
import { callsTo, sentJson } from '../../test/search-api-stub.ts';
import { readDonor } from './donation-session.ts';
import { DonationEntry } from './donation-entry.tsx';

vi.mock('../../shared/bot-check.tsx', () => import('../../test/bot-check.tsx'));

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function stubDonationApi(answers: Record<string, Answer> = {}) {
  return stubApi({
    '/api/Donation/donationUserSendOtp': jsonResponse(200, {
      isSuccess: true,
      message: 'A code was sent.',
    }),
    '/api/Donation/donationUserOtpVerify': (_url, init) => {
      const body = JSON.parse(init?.body as string) as { Otp: string };
      return body.Otp === '4321'
        ? jsonResponse(200, { isSuccess: true, message: 'Verified.', donationToken: 'token-1' })
        : jsonResponse(200, { isSuccess: false, message: 'The code is not correct.' });
    },
    ...answers,
  });
}

function renderEntry(onDone = vi.fn()) {
  renderWithProviders(
    <Routes>
      <Route path="/" element={<DonationEntry onDone={onDone} />} />
      <Route path="/donation" element={<LocationProbe />} />
    </Routes>,
  );
  return onDone;
}

async function sendCode(email = 'donor@example.com') {
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: email } });
  const send = screen.getByRole('button', { name: 'Send code' });
  await waitFor(() => expect(send).toHaveProperty('disabled', false));
  fireEvent.click(send);
}

const digit = (n: number) => screen.getByRole('textbox', { name: `Digit ${n} of 4` });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('DonationEntry', () => {
  it('sends a code to the e-mail with the bot-check payload', async () => {
    const fetchMock = stubDonationApi();
    renderEntry();

    await sendCode();

    expect(await screen.findByText(/We sent a 4-digit code to donor@example.com/)).toBeTruthy();
    expect(sentJson(callsTo(fetchMock, '/api/Donation/donationUserSendOtp')[0])).toEqual({
      email: 'donor@example.com',
      Otp: '',
      altcha: 'solved-payload',
    });
  });

  it('moves to the next box as each digit is typed, then verifies and goes to /donation', async () => {
    const fetchMock = stubDonationApi();
    const onDone = renderEntry();
    await sendCode();
    await screen.findByText(/We sent a 4-digit code/);

    fireEvent.change(digit(1), { target: { value: '4' } });
    expect(document.activeElement).toBe(digit(2));
    fireEvent.change(digit(2), { target: { value: '3' } });
    fireEvent.change(digit(3), { target: { value: '2' } });
    fireEvent.change(digit(4), { target: { value: '1' } });

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/donation'));
    expect(sentJson(callsTo(fetchMock, '/api/Donation/donationUserOtpVerify')[0])).toEqual({
      email: 'donor@example.com',
      Otp: '4321',
    });
    expect(readDonor()).toEqual({ email: 'donor@example.com', donationToken: 'token-1' });
    expect(onDone).toHaveBeenCalled();
  });

  it("shows the server's message for a wrong code and empties the boxes", async () => {
    stubDonationApi();
    renderEntry();
    await sendCode();
    await screen.findByText(/We sent a 4-digit code/);

    for (const [n, value] of ['1', '1', '1', '1'].entries())
      fireEvent.change(digit(n + 1), { target: { value } });

    expect((await screen.findByRole('alert')).textContent).toBe('The code is not correct.');
    expect(digit(1)).toHaveProperty('value', '');
    expect(readDonor()).toBeNull();
  });

  it('puts the focus back in the first box after a wrong code, ready for the next try', async () => {
    stubDonationApi();
    renderEntry();
    await sendCode();
    await screen.findByText(/We sent a 4-digit code/);

    for (const [n, value] of ['1', '1', '1', '1'].entries())
      fireEvent.change(digit(n + 1), { target: { value } });

    await screen.findByRole('alert');
    await waitFor(() => expect(document.activeElement).toBe(digit(1)));
  });

  it("shows the server's message when the code is not sent", async () => {
    stubDonationApi({
      '/api/Donation/donationUserSendOtp': jsonResponse(200, {
        isSuccess: false,
        message: 'Too many codes were asked for this e-mail. Try again later.',
      }),
    });
    renderEntry();
    await sendCode();

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many codes were asked for this e-mail. Try again later.',
    );
  });

  it("says 'Mail not Sent!!' when the server cannot be reached", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderEntry();
    await sendCode();

    expect((await screen.findByRole('alert')).textContent).toBe(PAYMENT_MESSAGES.otpMailNotSent);
  });
});

describe('DonationEntry focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the error when the code is not sent, though the button waits for a new bot check', async () => {
    const held = heldAnswer();
    stubDonationApi({ '/api/Donation/donationUserSendOtp': held.answer });
    renderEntry();
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'donor@example.com' } });
    const send = screen.getByRole('button', { name: 'Send code' });
    await waitFor(() => expect(send).toHaveProperty('disabled', false));

    await pressAndLoseFocus(send);
    held.release(jsonResponse(200, { isSuccess: false, message: 'Try again later.' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Try again later.');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(send).toHaveProperty('disabled', true);
  });
});
