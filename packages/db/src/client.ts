import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Database = NodePgDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything a repository function can run on: the pool's database or a transaction. */
export type Executor = Database | Transaction;

export interface Connection {
  db: Database;
  pool: pg.Pool;
  close: () => Promise<void>;
}

export interface ConnectOptions {
  applicationName?: string;
  statementTimeoutMs?: number;
  max?: number;
  /** TCP keepalive on each connection (probes after 30 s idle): for a connection held for hours. */
  keepAlive?: boolean;
}

export function connect(url: string, options: ConnectOptions = {}): Connection {
  const pool = new pg.Pool({
    connectionString: url,
    application_name: options.applicationName ?? 'ratelens',
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    max: options.max ?? 10,
    ...(options.keepAlive ? { keepAlive: true, keepAliveInitialDelayMillis: 30_000 } : {}),
  });
  // An idle client that loses its server must not take the process down.
  pool.on('error', () => {});
  heedCheckedOutErrors(pool);
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/**
 * A pool of its own, with the settings of `pool` (server, user, timeouts) and at most `max`
 * connections: for work that holds several connections for long, which on a shared pool would
 * leave its other users waiting. The caller ends it.
 */
export function poolLike(pool: pg.Pool, max: number, options: pg.PoolConfig = {}): pg.Pool {
  const own = new pg.Pool({ ...pool.options, ...options, max });
  // As in connect: an idle client that loses its server must not take the process down.
  own.on('error', () => {});
  heedCheckedOutErrors(own);
  return own;
}

/**
 * A client held out of its pool (an ingest's lock, its COPYs, a worker's job locks) that loses
 * its server between two queries (the database restarted, the session was ended) says so with an
 * 'error' event. The pool listens only while a client is idle in it, and an 'error' nobody hears
 * ends the process: the web server with it. Heard, it is left to the client's next query, which
 * fails ("Client has encountered a connection error") as any query to a lost server does.
 */
function heedCheckedOutErrors(pool: pg.Pool): void {
  pool.on('connect', (client) => client.on('error', () => {}));
}

/** Replaces the database name of a connection string. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Where raw SQL runs: the pool, or one client of it inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * The unique index or constraint a statement ran into (SQLSTATE 23505), or null for any other
 * error: for services that check a value is free and then write it, the answer to a concurrent
 * writer that got there between the two.
 */
export function uniqueViolationOf(error: unknown): string | null {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  if (code !== '23505') return null;
  return typeof constraint === 'string' ? constraint : '';
}

/** Whether a statement gave up waiting for a lock, after its `lock_timeout` (SQLSTATE 55P03). */
export function isLockTimeout(error: unknown): boolean {
  return ((error ?? {}) as { code?: unknown }).code === '55P03';
}

/**
 * Runs `work` in one transaction on one pooled connection (raw SQL and COPY need the client
 * itself); commits when it resolves, rolls back when it throws.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
