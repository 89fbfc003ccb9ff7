import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from './errors.ts';

/**
 * A value PostgreSQL cannot store that a schema let through is the request's fault: 400 with a
 * message, not 500. Each schema checks its values first; this is the backstop.
 */
describe("PostgreSQL's data exceptions", () => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = Fastify();
    registerErrorHandler(app);
    app.get<{ Querystring: { sql: string; value: string } }>('/value', async (request) => {
      const { rows } = await database.connection.pool.query<{ v: unknown }>(request.query.sql, [
        request.query.value,
      ]);
      return rows;
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it.each([
    ['SELECT $1::int4 AS v', '99999999999', '22003'],
    ['SELECT $1::timestamptz AS v', '0000-01-01T00:00:00Z', '22008'],
    ['SELECT $1::timestamptz AS v', '2030-01-01T00:00:00+16:00', '22009'],
    ['SELECT $1::timestamptz AS v', 'yesterday-ish', '22007'],
    ['SELECT $1::int4 AS v', 'ten', '22P02'],
  ])('answers %s of %j (%s) with 400', async (sql, value, _code) => {
    const response = await app.inject({ method: 'GET', url: '/value', query: { sql, value } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'A value of the request is outside what this server can store.',
    });
  });

  it('still answers 500 for a fault of the server', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/value',
      query: { sql: 'SELECT * FROM no_such_table WHERE $1::text IS NULL', value: 'x' },
    });
    expect(response.statusCode).toBe(500);
  });
});
