import { errorMessage } from '@ratelens/core';
import { ConfigError, parseConfig } from '../config.ts';
import { openDatabase } from '../database.ts';
import { paymentGatewayFor } from '../payments/gateway-for.ts';
import { runRenewals } from '../payments/renewals.ts';

/**
 * `npm run renewals`: one run of the renewal job (reconcile pending payments, renew, charge due
 * installments, end expired graces) against the configured database and gateway, for cron or by
 * hand. Safe beside running servers: every charge is an order under an idempotency key.
 */
async function main(): Promise<void> {
  const config = parseConfig();
  const database = await openDatabase(config, () => {});
  try {
    const gateway = paymentGatewayFor(config, database.connection.pool);
    const report = (details: object, message: string) =>
      console.log(`${message} ${JSON.stringify(details)}`);
    const summary = await runRenewals(database.connection.pool, gateway, new Date(), {
      gatewayTimeoutMs: config.PAYMENT_GATEWAY_TIMEOUT_MS,
      log: { info: report, warn: report, error: report },
    });
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError ? error.message : `Renewals failed: ${errorMessage(error)}`,
  );
  process.exit(1);
});
