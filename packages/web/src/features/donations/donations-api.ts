import { DonationVerifyResponseSchema, PAYMENT_MESSAGES, ResultSchema } from '@ratelens/core';
import { ApiRequestError, expectSuccess, requestJson } from '../../shared/http.ts';

/**
 * The donation one-time-code calls (search-and-accounts §7 "Donation/…"), public. A code that is
 * not sent shows the server's message; without an answer, 'Mail not Sent!!' (§8).
 */
export async function sendDonationCode(email: string, altcha: string): Promise<void> {
  try {
    expectSuccess(
      await requestJson('/api/Donation/donationUserSendOtp', {
        method: 'POST',
        body: { email, Otp: '', altcha },
        schema: ResultSchema,
      }),
    );
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 0 || error.status >= 500))
      throw new ApiRequestError(error.status, PAYMENT_MESSAGES.otpMailNotSent);
    throw error;
  }
}

/** `Donation/donationUserOtpVerify`: the token for the donation payment, or the server's refusal. */
export async function verifyDonationCode(email: string, Otp: string): Promise<string> {
  const result = expectSuccess(
    await requestJson('/api/Donation/donationUserOtpVerify', {
      method: 'POST',
      body: { email, Otp },
      schema: DonationVerifyResponseSchema,
    }),
  );
  if (!result.donationToken) throw new ApiRequestError(200, result.message || null);
  return result.donationToken;
}
