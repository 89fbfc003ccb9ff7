import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  login,
  PASSWORD,
  register,
  uniqueEmail,
  type TestApp,
} from '../test/app.ts';
import { AUTH_MESSAGES } from './auth-service.ts';

describe('repeated failed sign-ins', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp({ LOGIN_LOCK_THRESHOLD: '4', LOGIN_LOCK_MINUTES: '15' });
  });
  afterAll(async () => {
    await test.close();
  });

  it('are slowed down, then lock the account even for the right password', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    const statuses: number[] = [];
    const durations: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const started = Date.now();
      statuses.push((await login(test.app, email, 'Wrong-Password-1!')).statusCode);
      durations.push(Date.now() - started);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // The third failure waits 250 ms before answering.
    expect(durations[2]).toBeGreaterThanOrEqual(240);
    const right = await login(test.app, email, PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.json<{ message: string }>().message).toMatch(
      /^Too many failed sign-in attempts\. Please try again in 1[45] minutes\.$/,
    );
  });

  it('compare no more passwords than the lock allows when guesses come all at once', async () => {
    const burst = await createTestApp({
      LOGIN_LOCK_THRESHOLD: '4',
      AUTH_RATE_LIMIT_PER_MINUTE: '600',
    });
    try {
      const email = uniqueEmail();
      await register(burst.app, email);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(burst.app, email, `Wrong-Password-${i}!`)),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(27);
      // Every guess that was compared is recorded as failed: the lock's four, no more.
      const { rows } = await burst.database.connection.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log a JOIN users u ON u.id = a.user_id
          WHERE u.email = $1 AND a.action = 'login.failed'`,
        [email],
      );
      expect(rows[0]?.n).toBe(4);
      expect((await login(burst.app, email, PASSWORD)).statusCode).toBe(429);
    } finally {
      await burst.close();
    }
  });

  it('lock the client address after many failures across accounts', async () => {
    const other = await createTestApp({ LOGIN_LOCK_THRESHOLD: '2' });
    try {
      const statuses: number[] = [];
      // threshold 2 per account, 2 × 5 = 10 per address: ten different unknown accounts.
      for (let attempt = 0; attempt < 10; attempt++)
        statuses.push((await login(other.app, uniqueEmail(), 'Wrong-Password-1!')).statusCode);
      expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
      const email = uniqueEmail();
      await register(other.app, email);
      expect((await login(other.app, email, PASSWORD)).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe('the auth rate limit', () => {
  it('answers 429 in the error shape past the per-minute ceiling', async () => {
    const test = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++)
        statuses.push((await login(test.app, uniqueEmail(), 'x')).statusCode);
      expect(statuses.slice(0, 3)).not.toContain(429);
      const limited = await login(test.app, uniqueEmail(), 'x');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        isSuccess: false,
        statusCode: 429,
        error: 'Too Many Requests',
      });
      expect(limited.json<{ message: string }>().message).toMatch(
        /^Too many requests\. Please wait/,
      );
    } finally {
      await test.close();
    }
  });

  it('does not lock an account for a successful sign-in after a failure', async () => {
    const test = await createTestApp({ LOGIN_LOCK_THRESHOLD: '3' });
    try {
      const email = uniqueEmail();
      await register(test.app, email);
      for (let round = 0; round < 3; round++) {
        expect(
          (await login(test.app, email, 'Wrong-Password-1!')).json<{ message: string }>().message,
        ).toBe(AUTH_MESSAGES.invalidLogin);
        expect((await login(test.app, email, 'Wrong-Password-1!')).statusCode).toBe(401);
        expect((await login(test.app, email)).statusCode).toBe(200);
      }
    } finally {
      await test.close();
    }
  });
});
