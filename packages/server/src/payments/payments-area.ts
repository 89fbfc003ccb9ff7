import type { Pool } from '@ratelens/db';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthService } from '../auth/auth-service.ts';
import type { CaptchaService } from '../captcha/captcha-service.ts';
import type { Config } from '../config.ts';
import { DonationCodes } from '../donations/donation-codes.ts';
import { donationRoutes } from '../donations/donation-routes.ts';
import type { Mailer } from '../mail/mailer.ts';
import { Catalogue } from '../subscriptions/catalogue.ts';
import { AuthorizeNetGateway } from './authorizenet-gateway.ts';
import type { PaymentGateway } from './gateway.ts';
import { paymentRoutes } from './payment-routes.ts';
import { PaymentService } from './payment-service.ts';
import { scheduleRenewals } from './renewals.ts';
import { SandboxGateway } from './sandbox-gateway.ts';

/** The gateway PAYMENT_GATEWAY names (config.ts requires the credentials of authorizenet). */
export function paymentGatewayFor(config: Config, pool: Pool): PaymentGateway {
  switch (config.PAYMENT_GATEWAY) {
    case 'sandbox':
      return new SandboxGateway(pool);
    case 'authorizenet':
      return new AuthorizeNetGateway({
        url: config.AUTHORIZENET_URL,
        apiLoginId: config.AUTHORIZENET_API_LOGIN_ID ?? '',
        transactionKey: config.AUTHORIZENET_TRANSACTION_KEY ?? '',
        timeoutMs: config.PAYMENT_GATEWAY_TIMEOUT_MS,
      });
  }
}

export interface PaymentsAreaOptions {
  auth: AuthService;
  pool: Pool;
  mailer: Mailer;
  captcha: CaptchaService;
  config: Config;
}

/**
 * Payments, donations and the renewal job, registered by app.ts in one line. The job runs every
 * RENEWALS_INTERVAL_MINUTES (0: not in this process) and stops when the app closes.
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
  if (config.RENEWALS_INTERVAL_MINUTES > 0) {
    const stop = scheduleRenewals({
      pool,
      gateway,
      intervalMs: config.RENEWALS_INTERVAL_MINUTES * 60_000,
      gatewayTimeoutMs: config.PAYMENT_GATEWAY_TIMEOUT_MS,
      log: app.log,
    });
    app.addHook('onClose', stop);
  }
};
