import { openDatabase as open, type OpenDatabase } from '@ratelens/db';
import type { Config } from './config.ts';

export type { OpenDatabase };

/** The server's database: DATABASE_URL, or the embedded PostgreSQL of DATA_DIR (ADR 0002). */
export function openDatabase(
  config: Config,
  log: (message: string) => void,
  /** See @ratelens/db's openDatabase: the embedded database only when a server runs it. */
  joinOnly?: string,
): Promise<OpenDatabase> {
  return open({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    applicationName: 'ratelens-server',
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    log,
    joinOnly,
  });
}
