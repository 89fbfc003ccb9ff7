import type { Pool } from '@ratelens/db';
import type { Config } from '../config.ts';
import { AuthorizeNetGateway } from './authorizenet-gateway.ts';
import type { PaymentGateway } from './gateway.ts';
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
