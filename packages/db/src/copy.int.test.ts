import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWriter } from './copy.ts';
import { createTestDatabase, type TestDatabase } from './testing/database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.connection.pool.query('CREATE TABLE copied (n integer, t text)');
});
afterAll(async () => {
  await database.drop();
});

async function copy(
  lines: string[],
): Promise<{ rows: number; copied: { n: number; t: string }[] }> {
  const pool = database.connection.pool;
  await pool.query('TRUNCATE copied');
  const client = await pool.connect();
  try {
    const writer = copyWriter(client, 'copied', ['n', 't']);
    for (const line of lines) await writer.write(line);
    const rows = await writer.end();
    const { rows: copied } = await pool.query<{ n: number; t: string }>(
      'SELECT n, t FROM copied ORDER BY n',
    );
    return { rows, copied };
  } finally {
    client.release();
  }
}

describe('copyWriter', () => {
  it('copies every line, across many batches, in order', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `${i}\tline ${i}\n`);
    const { rows, copied } = await copy(lines);
    expect(rows).toBe(50_000);
    expect(copied).toHaveLength(50_000);
    expect(copied[49_999]).toEqual({ n: 49_999, t: 'line 49999' });
  });

  it('copies a line longer than a whole batch', async () => {
    const long = 'é'.repeat(300_000);
    const { copied } = await copy(['1\tshort\n', `2\t${long}\n`, '3\tafter\n']);
    expect(copied.map((r) => r.t.length)).toEqual([5, 300_000, 5]);
    expect(copied[1]?.t).toBe(long);
  });
});
