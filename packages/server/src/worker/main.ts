import { errorMessage } from '@ratelens/core';
import { ConfigError, parseConfig } from '../config.ts';
import { openDatabase } from '../database.ts';
import { onStopSignals } from '../stop-signals.ts';
import { logLine } from './log-line.ts';
import { keepRunningOnUnhandledRejections } from './unhandled-rejections.ts';
import { startWorker, workerOptions, workerWhen, type Worker } from './worker.ts';

/**
 * `npm run worker`: the background worker alone, for servers started with WORKER=off. It uses
 * DATABASE_URL, else the embedded PostgreSQL of a server running on DATA_DIR. It never starts that
 * one itself: stopping, it would stop it under a server started after it.
 */
async function main(): Promise<void> {
  const config = parseConfig();
  const database = await openDatabase(
    config,
    () => {},
    `No database: npm run worker uses DATABASE_URL, or the embedded database of a server running on ` +
      `DATA_DIR (${config.DATA_DIR}). Start the server first (npm start), or set DATABASE_URL.`,
  );
  const stamp = () => new Date().toISOString();
  // A database gone for a moment must not end the worker (keepRunningOnUnhandledRejections).
  keepRunningOnUnhandledRejections((message) => console.error(`${stamp()} ${logLine(message)}`));
  let worker: Worker | undefined;

  let stopping = false;
  onStopSignals(async (signal) => {
    stopping = true;
    console.log(`${signal} received: stopping the worker…`);
    try {
      await worker?.stop();
      await database.close();
      console.log('RateLens worker stopped.');
      process.exit(0);
    } catch (error) {
      console.error('Error while stopping:', errorMessage(error));
      process.exit(1);
    }
  });

  try {
    worker = await startWorker(
      workerOptions(config, database.connection.pool, {
        info: (message) => console.log(`${stamp()} ${logLine(message)}`),
        warn: (message) => console.warn(`${stamp()} ${logLine(message)}`),
        error: (message) => console.error(`${stamp()} ${logLine(message)}`),
      }),
    );
  } catch (error) {
    await database.close();
    throw error;
  }
  if (stopping) return;
  console.log(`RateLens worker is running (${database.description}): ${workerWhen(config)}.`);
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `The worker could not start: ${errorMessage(error)}`,
  );
  process.exit(1);
});
