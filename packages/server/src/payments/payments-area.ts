import type { Pool } from '@ratelens/db';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthService } from '../auth/auth-service.ts';
import type { CaptchaService } from '../captcha/captcha-service.ts';
import type { Config } from '../config.ts';
import { DonationCodes } from '../donations/donation-codes.ts';
import { donationRoutes } from '../donations/donation-routes.ts';
import type { Mailer } from '../mail/mailer.ts';
import { Catalogue } from '../subscriptions/catalogue.ts';
import { paymentRoutes } from './payment-routes.ts';
import { PaymentService } from './payment-service.ts';
import { paymentGatewayFor } from './gateway-for.ts';

export interface PaymentsAreaOptions {
  auth: AuthService;
  pool: Pool;
  mailer: Mailer;
  captcha: CaptchaService;
  config: Config;
}

/**
 * Payments and donations, registered by app.ts in one line. The renewal job is the background
 * worker's (worker/worker.ts), every RENEWALS_INTERVAL_MINUTES.
 */
export const paymentsArea: FastifyPluginAsync<PaymentsAreaOptions> = async (
  app,
  { auth, pool, mailer, captcha, config },
) => {
  const gateway = paymentGatewayFor(config, pool);
  const donationCodes = new DonationCodes({
    pool,
    mailer,
    captcha,
    sendsPerHour: config.DONATION_OTP_PER_HOUR,
  });
  await app.register(paymentRoutes, {
    auth,
    payments: new PaymentService({
      pool,
      gateway,
      catalogue: new Catalogue(pool),
      gatewayTimeoutMs: config.PAYMENT_GATEWAY_TIMEOUT_MS,
      log: app.log,
    }),
    donationCodes,
    rateLimitPerMinute: config.PAYMENT_RATE_LIMIT_PER_MINUTE,
  });
  await app.register(donationRoutes, {
    donationCodes,
    // An office shares an address: several people may each ask for their codes.
    sendsPerHourPerAddress: config.DONATION_OTP_PER_HOUR * 4,
    verifiesPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
  });
};
