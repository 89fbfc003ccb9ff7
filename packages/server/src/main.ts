import path from 'node:path';
import { isEmpty, loadDemoData, loadStates } from '@ratelens/ingest';
import { buildApp } from './app.ts';
import { ConfigError, parseConfig } from './config.ts';
import { openDatabase } from './database.ts';
import { outboxServed } from './dev/outbox-routes.ts';
import { resolveSecrets } from './secrets.ts';
import { onStopSignals } from './stop-signals.ts';
import { keepRunningOnUnhandledRejections } from './worker/unhandled-rejections.ts';
import { startWorker, workerOptions, workerWhen, type Worker } from './worker/worker.ts';

/** `npm start`: configuration, database (embedded unless DATABASE_URL), migrations, HTTP. */
async function main(): Promise<void> {
  const config = parseConfig();
  const secrets = await resolveSecrets(config);
  const verbose = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace';
  const database = await openDatabase(config, (message) => {
    if (verbose) console.log(`[postgres] ${message}`);
  });
  // The states are a constant, not reference data to load: the state filters list them whether
  // or not demo data or reference files were loaded.
  await loadStates(database.connection.pool);
  if (config.DEMO_DATA === 'on' && (await isEmpty(database.connection))) {
    console.log('The database has no hospitals yet: loading the demo data (fictional hospitals)…');
    const demo = await loadDemoData(database.connection, path.join(config.DATA_DIR, 'demo'));
    console.log(
      `Loaded demo data: ${demo.hospitals} fictional hospitals in ${demo.states} states, ` +
        `${demo.rates.toLocaleString('en-US')} rates, in ${demo.seconds.toFixed(1)} s. Set DEMO_DATA=off to start empty.`,
    );
  }
  const app = await buildApp({ config, secrets, connection: database.connection });
  // A database gone for a moment while a job ends must not take the web server down with the
  // worker (keepRunningOnUnhandledRejections): logged as an error instead.
  keepRunningOnUnhandledRejections((message) => app.log.error(message));

  let worker: Worker | undefined;
  onStopSignals(async (signal) => {
    console.log(`\n${signal} received: stopping RateLens…`);
    const timer = setTimeout(() => {
      console.error('Shutdown took longer than 10 s; exiting.');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await worker?.stop();
      await app.close();
      await database.close();
      console.log('RateLens stopped; the database is shut down cleanly.');
      process.exit(0);
    } catch (error) {
      console.error('Error while stopping:', error);
      process.exit(1);
    }
  });

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await database.close();
    throw error;
  }
  if (config.WORKER === 'on') {
    try {
      worker = await startWorker(
        workerOptions(config, database.connection.pool, {
          info: (message) => app.log.info(message),
          warn: (message) => app.log.warn(message),
          error: (message) => app.log.error(message),
        }),
      );
    } catch (error) {
      await app.close();
      await database.close();
      throw error;
    }
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '127.0.0.1' ? 'localhost' : config.HOST;
  console.log(`RateLens is running at http://${host}:${port}`);
  console.log(`  API docs: http://${host}:${port}/api/docs · database: ${database.description}`);
  if (outboxServed(config)) console.log(`  E-mail outbox: http://${host}:${port}/dev/outbox`);
  console.log(
    worker
      ? `  Background worker: on; ${workerWhen(config)}.`
      : '  Background worker: off (WORKER=off); run one with npm run worker.',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('RateLens could not start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
