import {
  DonationSendOtpRequestSchema,
  DonationVerifyOtpRequestSchema,
  DonationVerifyResponseSchema,
  ResultSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DonationCodes } from './donation-codes.ts';

export interface DonationRoutesOptions {
  donationCodes: DonationCodes;
  /** Codes one client address may ask for per hour (each e-mail address has its own limit). */
  sendsPerHourPerAddress: number;
  /** Verify calls per minute and client address. */
  verifiesPerMinute: number;
}

/** The donation popup's e-mail check (search-and-accounts §7 "Donation/…"). */
export const donationRoutes: FastifyPluginAsyncZod<DonationRoutesOptions> = async (
  app,
  { donationCodes, sendsPerHourPerAddress, verifiesPerMinute },
) => {
  const tags = ['Donations'];

  app.post('/Donation/donationUserSendOtp', {
    config: { rateLimit: { max: sendsPerHourPerAddress, timeWindow: '1 hour' } },
    schema: {
      tags,
      summary: 'E-mail a 4-digit code (10 minutes, single use) to confirm the donor’s address',
      description: 'Needs a solved ALTCHA challenge (GET Captcha/challenge) in `altcha`.',
      body: DonationSendOtpRequestSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => donationCodes.send(request.body),
  });

  app.post('/Donation/donationUserOtpVerify', {
    config: { rateLimit: { max: verifiesPerMinute, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'Check the code; answers the donationToken the donation payment calls carry',
      description: 'Five wrong codes lock the code: ask for a new one.',
      body: DonationVerifyOtpRequestSchema,
      response: { 200: DonationVerifyResponseSchema },
    },
    handler: (request) => donationCodes.verify(request.body),
  });
};
