import { randomBytes } from 'node:crypto';
import { ROLES, type LoginResponse } from '@ratelens/core';
import { insertUser, listOutboxMessages } from '@ratelens/db';
import { solveChallenge } from 'altcha-lib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { parseConfig } from '../config.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close: () => Promise<void>;
}

/** The real application on a fresh database, configured as a test run would be. */
export async function createTestApp(
  env: Record<string, string> = {},
  mailer?: Mailer,
  logStream?: { write: (line: string) => void },
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ALTCHA_MAX_NUMBER: '2000',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST_DIR: '/nonexistent',
    ...env,
  });
  const secrets = {
    jwtSecret: randomBytes(32).toString('hex'),
    altchaHmacKey: randomBytes(32).toString('hex'),
  };
  const app = await buildApp({
    config,
    secrets,
    connection: database.connection,
    mailer,
    logStream,
  });
  const undocumented = new Set<string>();
  app.addHook('onResponse', async (request, reply) => {
    const code = reply.statusCode;
    if (code !== 403 && code !== 404 && code !== 409) return;
    const { url, config, schema } = request.routeOptions;
    // Unknown paths, and routes the document does not list (the outbox, the web's files).
    if (url === undefined || !schema || schema.hide) return;
    if (!config.refusals?.[code]) undocumented.add(`${request.method} ${url} answered ${code}`);
  });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.drop();
      // The OpenAPI document lists each route's refusals from config.refusals: every one a test
      // met must be there (http/openapi-errors.ts).
      if (undocumented.size > 0)
        throw new Error(
          `Refusals missing from their route's config.refusals: ${[...undocumented].join('; ')}`,
        );
    },
  };
}

/**
 * The usual set-up of a test file: one app on a fresh database, built before the tests and
 * closed after them. The object is filled in by `beforeAll`, so use it inside tests only.
 */
export function useTestApp(...args: Parameters<typeof createTestApp>): TestApp {
  const holder = {} as TestApp;
  beforeAll(async () => {
    Object.assign(holder, await createTestApp(...args));
  });
  afterAll(async () => {
    await holder.close();
  });
  return holder;
}

/** Solves a fresh ALTCHA challenge the way the browser widget does. */
export async function solvedCaptcha(app: FastifyInstance): Promise<string> {
  const challenge = (await app.inject({ method: 'GET', url: '/api/Captcha/challenge' })).json<{
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  }>();
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error('could not solve the challenge');
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export const PASSWORD = 'Sunny-Day-42!';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

export async function register(
  app: FastifyInstance,
  email: string,
  password = PASSWORD,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/Auth/Register',
    payload: {
      FullName: email,
      email,
      RoleName: ROLES.webUser,
      Password: password,
      ConfirmPassword: password,
      altcha: await solvedCaptcha(app),
    },
  });
}

export async function login(
  app: FastifyInstance,
  email: string,
  password = PASSWORD,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/Auth/login',
    payload: { UserName: email, password },
  });
}

/** Registers and signs in; returns the login response. */
export async function signedInUser(
  app: FastifyInstance,
  email = uniqueEmail(),
): Promise<LoginResponse> {
  const registered = await register(app, email);
  if (registered.statusCode !== 200) throw new Error(`register failed: ${registered.body}`);
  const response = await login(app, email);
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return response.json<LoginResponse>();
}

/** Confirms an account's address with the link of the newest e-mail sent to it, as its owner does. */
export async function confirmAddress(test: TestApp, email: string): Promise<void> {
  const link = await linkFromLatestEmail(test, email);
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/auth/ConfirmEmail',
    payload: { Email: link.searchParams.get('email'), Token: link.searchParams.get('token') },
  });
  if (!response.json<{ isSuccess?: boolean }>().isSuccess)
    throw new Error(`confirming ${email} failed: ${response.body}`);
}

/** Creates an admin directly in the database (as `npm run admin:create` does) and signs in. */
export async function signedInAdmin(test: TestApp): Promise<LoginResponse> {
  const email = uniqueEmail('admin');
  await insertUser(test.database.connection.db, {
    email,
    passwordHash: await hashPassword(PASSWORD),
    role: ROLES.admin,
    fullName: 'Ada Admin',
  });
  const response = await login(test.app, email);
  return response.json<LoginResponse>();
}

export function authHeaders(
  session: Pick<LoginResponse, 'token' | 'secval'>,
): Record<string, string> {
  return { authorization: `Bearer ${session.token}`, secret_key: session.secval };
}

/** The link of the newest e-mail sent to an address (the outbox driver keeps them). */
export async function linkFromLatestEmail(test: TestApp, to: string): Promise<URL> {
  const [message] = await listOutboxMessages(test.database.connection.db, { to });
  const match = message ? /https?:\/\/\S+/.exec(message.text) : null;
  if (!match) throw new Error(`no link in the e-mail to ${to}`);
  return new URL(match[0]);
}
