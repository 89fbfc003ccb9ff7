import { createHash, randomBytes } from 'node:crypto';
import { ROLES } from '@ratelens/core';
import { insertUser } from '@ratelens/db';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../http/errors.ts';
import {
  deleteExpiredReports,
  loadReport,
  reportsRoutes,
  reportUrl,
  storeReport,
} from './report-links.ts';

let database: TestDatabase;
let app: FastifyInstance;
let userId: string;
const pdf = Buffer.from('%PDF-1.7\n% a tiny stand-in for a rendered report\n%%EOF\n');

/** The plugin as the app mounts it: under /api, with the one error handler. */
beforeAll(async () => {
  database = await createTestDatabase();
  const user = await insertUser(database.connection.db, {
    email: `reports-${randomBytes(4).toString('hex')}@example.com`,
    passwordHash: 'not-used',
    fullName: 'Report Reader',
    role: ROLES.webUser,
  });
  userId = user?.id ?? '';
  app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(reportsRoutes, { prefix: '/api', db: database.connection.db });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await database.drop();
});

async function expire(token: string): Promise<void> {
  await database.connection.pool.query(
    `UPDATE reports SET expires_at = now() - interval '1 minute' WHERE token_hash = $1`,
    [createHash('sha256').update(token).digest('hex')],
  );
}

describe('report links', () => {
  it('stores a report behind a 43-character token that expires after the given hours', async () => {
    const before = Date.now();
    const { token, expiresAt } = await storeReport(database.connection.db, {
      userId,
      fileName: 'ratelens-70551.pdf',
      pdf,
      ttlHours: 72,
    });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime() - before).toBeGreaterThanOrEqual(72 * 3_600_000);
    expect(expiresAt.getTime() - before).toBeLessThan(72 * 3_600_000 + 60_000);
    expect(await loadReport(database.connection.db, token)).toEqual({
      fileName: 'ratelens-70551.pdf',
      pdf,
    });
  });

  it('keeps only the SHA-256 of the token', async () => {
    const { token } = await storeReport(database.connection.db, {
      userId,
      fileName: 'a.pdf',
      pdf,
      ttlHours: 1,
    });
    const { rows } = await database.connection.pool.query<Record<string, unknown>>(
      `SELECT token_hash, user_id, file_name, created_at, expires_at FROM reports WHERE token_hash = $1`,
      [createHash('sha256').update(token).digest('hex')],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('gives nothing for an unknown, a malformed or an expired token', async () => {
    const { token } = await storeReport(database.connection.db, {
      userId,
      fileName: 'b.pdf',
      pdf,
      ttlHours: 1,
    });
    expect(await loadReport(database.connection.db, randomBytes(32).toString('base64url'))).toBe(
      null,
    );
    expect(await loadReport(database.connection.db, 'short')).toBe(null);
    await expire(token);
    expect(await loadReport(database.connection.db, token)).toBe(null);
  });

  it('deletes expired reports and keeps the others', async () => {
    const db = database.connection.db;
    const old = await storeReport(db, { userId, fileName: 'old.pdf', pdf, ttlHours: 1 });
    const fresh = await storeReport(db, { userId, fileName: 'fresh.pdf', pdf, ttlHours: 1 });
    await expire(old.token);
    expect(await deleteExpiredReports(db)).toBeGreaterThanOrEqual(1);
    const { rows } = await database.connection.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reports WHERE expires_at <= now()`,
    );
    expect(rows[0]?.n).toBe(0);
    expect(await loadReport(db, fresh.token)).not.toBe(null);
  });

  it('clears expired reports when it stores a new one', async () => {
    const db = database.connection.db;
    const old = await storeReport(db, { userId, fileName: 'stale.pdf', pdf, ttlHours: 1 });
    await expire(old.token);
    await storeReport(db, { userId, fileName: 'next.pdf', pdf, ttlHours: 1 });
    const { rows } = await database.connection.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reports WHERE expires_at <= now()`,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('builds the link under /api of the public address', () => {
    expect(reportUrl('https://ratelens.example/', 'abc')).toBe(
      'https://ratelens.example/api/reports/abc',
    );
  });
});

describe('GET /api/reports/:token', () => {
  it('answers the PDF inline, never cached', async () => {
    const { token } = await storeReport(database.connection.db, {
      userId,
      fileName: 'ratelens-70551-anchorage.pdf',
      pdf,
      ttlHours: 1,
    });
    const response = await app.inject({ method: 'GET', url: `/api/reports/${token}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(
      /^inline; filename="ratelens-70551-anchorage\.pdf"/,
    );
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.rawPayload.equals(pdf)).toBe(true);
  });

  it('answers 404 in the error shape for an unknown link', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/reports/${randomBytes(32).toString('base64url')}`,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      isSuccess: false,
      statusCode: 404,
      error: 'Not Found',
      message:
        'This report link has expired or does not exist. Ask for a new report from your search results.',
    });
  });

  it('answers 404 once the link has expired', async () => {
    const { token } = await storeReport(database.connection.db, {
      userId,
      fileName: 'c.pdf',
      pdf,
      ttlHours: 1,
    });
    await expire(token);
    const response = await app.inject({ method: 'GET', url: `/api/reports/${token}` });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
  });

  it('answers 400 in the error shape for a malformed token', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/reports/not-a-token' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      isSuccess: false,
      statusCode: 400,
      message: 'This report link is not complete. Open the whole link from the text message.',
      errors: [{ field: 'token' }],
    });
  });
});
