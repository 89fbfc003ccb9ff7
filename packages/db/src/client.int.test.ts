import { describe, expect, it } from 'vitest';
import { connect } from './client.ts';
import { createTestDatabase } from './testing/database.ts';

describe('connect', () => {
  it('keeps the process up when a client held out of the pool loses its server between queries', async () => {
    const database = await createTestDatabase();
    const connection = connect(database.url, { applicationName: 'ratelens-lost-client' });
    try {
      const held = await connection.pool.connect();
      const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Ended from elsewhere while no query of its own runs: the server's farewell reaches the
      // client as an 'error' event, which, unheard, would be thrown out of the socket's callback.
      await database.connection.pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(held.query('SELECT 1')).rejects.toThrow();
      held.release(true);
      // The pool opens another connection for the next caller.
      expect((await connection.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([
        { one: 1 },
      ]);
    } finally {
      await connection.close();
      await database.drop();
    }
  });
});
