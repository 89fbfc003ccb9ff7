import { connect, type Connection } from './client.ts';
import { runningEmbeddedUrl, startEmbeddedPostgres } from './embedded.ts';
import { runMigrations } from './migrate.ts';

export interface OpenDatabaseOptions {
  /** PostgreSQL 15+; when absent the embedded server of dataDir is used. */
  databaseUrl?: string;
  dataDir: string;
  applicationName: string;
  statementTimeoutMs?: number;
  log?: (message: string) => void;
  /**
   * Without databaseUrl, use the embedded server only when another process (the server) runs it:
   * a long-running process that started it would stop it under that process when it stops. Said
   * in `joinOnly` (the error's message) when it does not run.
   */
  joinOnly?: string;
}

export interface OpenDatabase {
  connection: Connection;
  /** Where it runs, without credentials, for start-up messages. */
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
 * Used by the server and by every command-line tool.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenDatabase> {
  if (!options.databaseUrl && options.joinOnly !== undefined) {
    const url = await runningEmbeddedUrl(options.dataDir);
    if (!url) throw new Error(options.joinOnly);
    const opened = await openDatabase({ ...options, databaseUrl: url, joinOnly: undefined });
    return {
      ...opened,
      description: `the embedded PostgreSQL of the server running on ${options.dataDir}`,
    };
  }
  const embedded = options.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(options.dataDir, options.log);
  const url = options.databaseUrl ?? embedded?.url;
  if (!url) throw new Error('No database: set DATABASE_URL or leave it empty for the embedded one');
  try {
    await runMigrations(url);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const connection = connect(url, {
    applicationName: options.applicationName,
    statementTimeoutMs: options.statementTimeoutMs,
  });
  return {
    connection,
    description: embedded ? `embedded PostgreSQL (data in ${options.dataDir})` : redact(url),
    close: async () => {
      await connection.close();
      await embedded?.stop();
    },
  };
}
