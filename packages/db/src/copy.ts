import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const BATCH_BYTES = 256 * 1024;
const LINES_CHARS = 16 * 1024;

export interface CopyWriterOptions {
  /**
   * COPY ... WITH (FREEZE): rows are written already frozen, so nothing rewrites the pages later
   * (hint bits, anti-wraparound vacuum). Only allowed into a table created or truncated in the
   * same transaction as the COPY.
   */
  freeze?: boolean;
}

export interface CopyWriter {
  /** Queues one COPY text line; await it only when it returns a promise (backpressure). */
  write(line: string): Promise<void> | undefined;
  /** Flushes and waits for PostgreSQL to acknowledge the whole COPY; resolves to the row count. */
  end(): Promise<number>;
  /** Abandons the COPY (PostgreSQL rolls it back); resolves once the connection is free again. */
  abort(reason: Error): Promise<void>;
}

/**
 * A COPY ... FROM STDIN into a table on its own connection, fed line by line: lines are batched
 * into large chunks and the writer waits when PostgreSQL is slower than the reader, so memory
 * stays flat however large the file. This is how rate data enters the database (never
 * row-by-row INSERT).
 */
export function copyWriter(
  client: pg.PoolClient | pg.Client,
  table: string,
  columns: readonly string[],
  options: CopyWriterOptions = {},
): CopyWriter {
  const sql = `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM STDIN${options.freeze ? ' WITH (FREEZE)' : ''}`;
  const copy = client.query(copyFrom(sql));
  const input = new PassThrough({ highWaterMark: 4 * BATCH_BYTES });
  const done = pipeline(input, copy);
  // Surface a COPY failure to the writer at once rather than when the file ends.
  let failure: unknown;
  done.catch((error: unknown) => {
    failure = error;
  });
  // Lines are gathered into short strings and encoded into a batch buffer: one encoding per
  // few dozen lines is cheaper than one per line, and kept as strings until a whole batch is
  // sent, millions of small strings would outlive the young generation and make every GC slow.
  let lines = '';
  let batch = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  let rows = 0;
  const encode = () => {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const room = lines.length * 3;
    let waiting: Promise<void> | undefined;
    if (used + room > batch.length) {
      waiting = flush();
      if (room > batch.length) batch = Buffer.allocUnsafe(room);
    }
    used += batch.write(lines, used);
    lines = '';
    return waiting;
  };
  const flush = (): Promise<void> | undefined => {
    if (used === 0) return undefined;
    const ok = input.write(batch.subarray(0, used));
    batch = Buffer.allocUnsafe(BATCH_BYTES);
    used = 0;
    // Waiting for 'drain' alone would hang if the COPY failed meanwhile: race it with the end.
    return ok ? undefined : Promise.race([once(input, 'drain').then(() => undefined), done]);
  };
  return {
    write(line) {
      if (failure)
        throw failure instanceof Error ? failure : new Error('COPY failed', { cause: failure });
      rows++;
      lines += line;
      return lines.length >= LINES_CHARS ? encode() : undefined;
    },
    async end() {
      await encode();
      await flush();
      input.end();
      await done;
      return rows;
    },
    async abort(reason) {
      input.destroy(reason);
      await done.catch(() => undefined);
    },
  };
}
