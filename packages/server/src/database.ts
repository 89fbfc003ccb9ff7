import { connect, runMigrations, startEmbeddedPostgres, type Connection } from '@ratelens/db';
import type { Config } from './config.ts';

export interface OpenDatabase {
  connection: Connection;
  /** Where it runs, without credentials, for the start-up message. */
  description: string;
  close: () => Promise<void>;
}

function redact(url: string): string {
  const parsed = new URL(url);
  parsed.password = parsed.password ? '***' : '';
  return parsed.toString();
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL of DATA_DIR. Either way the committed
 * migrations are applied (under an advisory lock) before anything else touches the database.
 */
export async function openDatabase(
  config: Config,
  log: (message: string) => void,
): Promise<OpenDatabase> {
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres(config.DATA_DIR, (m) => log(m));
  const url = config.DATABASE_URL ?? embedded?.url;
  if (!url) throw new Error('No database: set DATABASE_URL or leave it empty for the embedded one');
  try {
    await runMigrations(url);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const connection = connect(url, {
    applicationName: 'ratelens-server',
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  });
  return {
    connection,
    description: embedded ? `embedded PostgreSQL (data in ${config.DATA_DIR})` : redact(url),
    close: async () => {
      await connection.close();
      await embedded?.stop();
    },
  };
}
