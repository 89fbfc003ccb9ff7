let installed: ((reason: unknown) => void) | undefined;

/**
 * Logs, as an error, a promise that rejected with nobody listening, and keeps the process
 * running (ADR 0021). pg-boss ends each job with calls it does not await (`complete`, `fail`):
 * when the database is gone at that moment (a restart, a failover), their rejection reaches
 * nobody, and Node's default for that is to end the process: the web server with the worker in
 * it. Installed once, by the processes' entry points (`npm start`, `npm run worker`), not by
 * startWorker: tests and other callers keep Node's default.
 */
export function keepRunningOnUnhandledRejections(logError: (message: string) => void): void {
  if (installed) process.off('unhandledRejection', installed);
  installed = (reason) => {
    const detail =
      reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : reason;
    logError(`A promise rejected with nobody to handle it (kept running): ${String(detail)}`);
  };
  process.on('unhandledRejection', installed);
}
