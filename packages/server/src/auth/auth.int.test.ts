import {
  FORGET_PASSWORD_MESSAGE,
  PASSWORD_MESSAGES,
  ROLES,
  type LoginResponse,
} from '@ratelens/core';
import { findUserByEmail, insertEmailToken, listOutboxMessages, schema } from '@ratelens/db';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  authHeaders,
  createTestApp,
  linkFromLatestEmail,
  login,
  PASSWORD,
  register,
  signedInUser,
  solvedCaptcha,
  uniqueEmail,
  useTestApp,
} from '../test/app.ts';
import { AUTH_MESSAGES, REFRESH_REUSE_GRACE_MS } from './auth-service.ts';
import { hashToken, randomToken } from './tokens.ts';

const test = useTestApp();

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  test.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });

describe('POST api/Auth/Register', () => {
  it('creates a web user, hashes the password with argon2id and sends a verification e-mail', async () => {
    const email = uniqueEmail();
    const response = await register(test.app, email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isSuccess: true, message: AUTH_MESSAGES.registered });
    const user = await findUserByEmail(test.database.connection.db, email);
    expect(user?.role).toBe(ROLES.webUser);
    expect(user?.emailConfirmed).toBe(false);
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const [mail] = await listOutboxMessages(test.database.connection.db, { to: email });
    expect(mail?.subject).toBe('Verify your RateLens e-mail address');
  });

  it('ignores a RoleName sent by the client', async () => {
    const email = uniqueEmail();
    const response = await post('/api/Auth/Register', {
      FullName: email,
      email,
      RoleName: 'admin',
      Password: PASSWORD,
      ConfirmPassword: PASSWORD,
      altcha: await solvedCaptcha(test.app),
    });
    expect(response.statusCode).toBe(200);
    expect((await findUserByEmail(test.database.connection.db, email))?.role).toBe(ROLES.webUser);
  });

  it('stores the e-mail address in lower case and refuses a second account for it', async () => {
    const email = uniqueEmail();
    expect((await register(test.app, email.toUpperCase())).statusCode).toBe(200);
    const again = await register(test.app, email);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ isSuccess: false, message: AUTH_MESSAGES.emailTaken });
  });

  it('lists every broken password rule with the spec messages', async () => {
    const response = await post('/api/Auth/Register', {
      email: uniqueEmail(),
      Password: 'abcdefgh',
      ConfirmPassword: 'abcdefgh',
      altcha: await solvedCaptcha(test.app),
    });
    expect(response.statusCode).toBe(400);
    const messages = response
      .json<{ errors: { field: string; message: string }[] }>()
      .errors.map((e) => e.message);
    expect(messages).toEqual([
      PASSWORD_MESSAGES.uppercase,
      PASSWORD_MESSAGES.digit,
      PASSWORD_MESSAGES.special,
    ]);
  });

  it('refuses a confirmation that differs from the password', async () => {
    const response = await post('/api/Auth/Register', {
      email: uniqueEmail(),
      Password: PASSWORD,
      ConfirmPassword: `${PASSWORD}x`,
      altcha: await solvedCaptcha(test.app),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [{ field: 'ConfirmPassword', message: PASSWORD_MESSAGES.mismatch }],
    });
  });

  it('names each missing field as required', async () => {
    const response = await post('/api/Auth/Register', {});
    expect(response.statusCode).toBe(400);
    const errors = response.json<{ errors: { field: string; rule: string }[] }>().errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'email', rule: 'required' }),
        expect.objectContaining({ field: 'Password', rule: 'required' }),
        expect.objectContaining({ field: 'altcha', rule: 'required' }),
      ]),
    );
  });

  it('answers wrong types and oversized strings with 400, naming the field', async () => {
    const wrongType = await post('/api/Auth/Register', {
      email: 42,
      Password: [],
      ConfirmPassword: {},
      altcha: true,
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json<{ errors: unknown[] }>().errors).toContainEqual({
      field: 'email',
      rule: 'invalid_type',
      message: 'Email must be text.',
    });
    const long = 'A1!a'.repeat(100);
    const oversized = await post('/api/Auth/Register', {
      email: `${'x'.repeat(300)}@example.com`,
      Password: long,
      ConfirmPassword: long,
      altcha: 'x',
    });
    expect(oversized.statusCode).toBe(400);
    const fields = oversized.json<{ errors: { field: string }[] }>().errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'Password']));
  });

  it('answers a body that is not JSON with 400', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/Auth/Register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ isSuccess: false, statusCode: 400 });
  });

  it('refuses a forged bot-check payload', async () => {
    const forged = Buffer.from(
      JSON.stringify({
        algorithm: 'SHA-256',
        challenge: 'a',
        number: 1,
        salt: 'b',
        signature: 'c',
      }),
    ).toString('base64');
    const response = await post('/api/Auth/Register', {
      email: uniqueEmail(),
      Password: PASSWORD,
      ConfirmPassword: PASSWORD,
      altcha: forged,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [{ field: 'altcha', message: AUTH_MESSAGES.captchaFailed }],
    });
  });

  it('refuses a replayed bot-check payload', async () => {
    const altcha = await solvedCaptcha(test.app);
    const first = await post('/api/Auth/Register', {
      email: uniqueEmail(),
      Password: PASSWORD,
      ConfirmPassword: PASSWORD,
      altcha,
    });
    expect(first.statusCode).toBe(200);
    const replay = await post('/api/Auth/Register', {
      email: uniqueEmail(),
      Password: PASSWORD,
      ConfirmPassword: PASSWORD,
      altcha,
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ message: AUTH_MESSAGES.captchaFailed });
  });
});

describe('POST api/Captcha/VerifyRecaptcha', () => {
  it('answers success for a solved, unspent payload without spending it', async () => {
    const altcha = await solvedCaptcha(test.app);
    const check = await post('/api/Captcha/VerifyRecaptcha', { recaptchaToken: altcha });
    expect(check.json()).toEqual({ success: true });
    const use = await post('/api/Auth/Register', {
      email: uniqueEmail(),
      Password: PASSWORD,
      ConfirmPassword: PASSWORD,
      altcha,
    });
    expect(use.statusCode).toBe(200);
    const after = await post('/api/Captcha/VerifyRecaptcha', { recaptchaToken: altcha });
    expect(after.json()).toEqual({ success: false });
  });

  it('answers success false for garbage', async () => {
    const response = await post('/api/Captcha/VerifyRecaptcha', {
      recaptchaToken: 'not base64 json',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: false });
  });
});

describe('POST api/Auth/login', () => {
  it('returns every field of the login response', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    const response = await login(test.app, email.toUpperCase());
    expect(response.statusCode).toBe(200);
    const body = response.json<LoginResponse>();
    expect(body).toMatchObject({
      isSuccess: true,
      emailID: email,
      userName: email,
      role: ROLES.webUser,
    });
    for (const key of [
      'token',
      'userID',
      'secval',
      'refreshToken',
      'expireDate',
      'message',
    ] as const)
      expect(body[key]).toBeTruthy();
    const ttl = new Date(body.expireDate).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
  });

  it('answers a wrong password and an unknown account with the same 401', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    const wrong = await login(test.app, email, 'Wrong-Password-1!');
    const unknown = await login(test.app, uniqueEmail(), 'Wrong-Password-1!');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json<{ message: string }>().message).toBe(AUTH_MESSAGES.invalidLogin);
    expect(unknown.json<{ message: string }>().message).toBe(AUTH_MESSAGES.invalidLogin);
  });

  it('records the time of the last sign-in', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    await login(test.app, email);
    expect((await findUserByEmail(test.database.connection.db, email))?.lastLoginAt).toBeInstanceOf(
      Date,
    );
  });
});

describe('authenticated calls', () => {
  it('need the bearer token and the matching secret_key header', async () => {
    const session = await signedInUser(test.app);
    const url = `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`;
    const ok = await test.app.inject({ method: 'GET', url, headers: authHeaders(session) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ emailID: session.emailID, emailConfirmed: false });
    const noToken = await test.app.inject({ method: 'GET', url });
    const noSecret = await test.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${session.token}` },
    });
    const wrongSecret = await test.app.inject({
      method: 'GET',
      url,
      headers: { ...authHeaders(session), secret_key: 'nope' },
    });
    const garbage = await test.app.inject({
      method: 'GET',
      url,
      headers: { authorization: 'Bearer abc.def.ghi', secret_key: session.secval },
    });
    for (const response of [noToken, noSecret, wrongSecret, garbage]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ isSuccess: false, statusCode: 401 });
    }
  });

  it('refuse an expired access token', async () => {
    const short = await createTestApp({ ACCESS_TOKEN_TTL: '1s' });
    try {
      const session = await signedInUser(short.app);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const response = await short.app.inject({
        method: 'GET',
        url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`,
        headers: authHeaders(session),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: AUTH_MESSAGES.sessionExpired });
    } finally {
      await short.close();
    }
  });

  it('stop working after logout', async () => {
    const session = await signedInUser(test.app);
    const out = await test.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: authHeaders(session),
    });
    expect(out.json()).toEqual({ isSuccess: true, message: AUTH_MESSAGES.loggedOut });
    const after = await test.app.inject({
      method: 'GET',
      url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`,
      headers: authHeaders(session),
    });
    expect(after.statusCode).toBe(401);
  });
});

describe('POST api/auth/logout', () => {
  it('ends the session with the refresh token when the access token has expired', async () => {
    const short = await createTestApp({ ACCESS_TOKEN_TTL: '1s' });
    try {
      const session = await signedInUser(short.app);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const out = await short.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: authHeaders(session),
        payload: { refreshToken: session.refreshToken },
      });
      expect(out.statusCode).toBe(200);
      const refresh = await short.app.inject({
        method: 'POST',
        url: '/api/auth/refreshToken',
        payload: { token: session.token, refreshToken: session.refreshToken },
      });
      expect(refresh.statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('refuses without a valid access token or a current refresh token', async () => {
    const session = await signedInUser(test.app);
    const bare = await post('/api/auth/logout', {});
    const madeUp = await post('/api/auth/logout', { refreshToken: 'made-up' });
    expect(bare.statusCode).toBe(401);
    expect(madeUp.statusCode).toBe(401);
    const still = await post('/api/auth/refreshToken', {
      token: session.token,
      refreshToken: session.refreshToken,
    });
    expect(still.statusCode).toBe(200);
  });
});

describe('POST api/auth/refreshToken', () => {
  const refresh = (session: { token: string; refreshToken: string }) =>
    post('/api/auth/refreshToken', {
      token: session.token,
      refreshToken: session.refreshToken,
      expiration: null,
    });

  it('rotates the refresh token and issues a working access token', async () => {
    const session = await signedInUser(test.app);
    const response = await refresh(session);
    expect(response.statusCode).toBe(200);
    const next = response.json<{ token: string; refreshToken: string; expiration: string }>();
    expect(next.refreshToken).not.toBe(session.refreshToken);
    const details = await test.app.inject({
      method: 'GET',
      url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`,
      headers: authHeaders({ token: next.token, secval: session.secval }),
    });
    expect(details.statusCode).toBe(200);
  });

  /** Dates a used refresh token's use back past the grace a lost answer is given. */
  const usedLongAgo = async (refreshToken: string) => {
    const { rowCount } = await test.database.connection.pool.query(
      `UPDATE refresh_tokens SET used_at = used_at - make_interval(secs => $2::float8 / 1000 + 1)
        WHERE token_hash = $1 AND used_at IS NOT NULL`,
      [hashToken(refreshToken), REFRESH_REUSE_GRACE_MS],
    );
    expect(rowCount).toBe(1);
  };

  it('ends the whole session when a refresh token is used twice', async () => {
    const session = await signedInUser(test.app);
    const first = (await refresh(session)).json<{ token: string; refreshToken: string }>();
    await usedLongAgo(session.refreshToken);
    const reuse = await refresh(session);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toMatchObject({ message: AUTH_MESSAGES.sessionEnded });
    // The legitimate holder of the newer token is signed out too: the session is gone.
    expect((await refresh(first)).statusCode).toBe(401);
    const details = await test.app.inject({
      method: 'GET',
      url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`,
      headers: authHeaders({ token: first.token, secval: session.secval }),
    });
    expect(details.statusCode).toBe(401);
  });

  it('rotates a refresh token again when it comes back at once: a reload lost the answer', async () => {
    const session = await signedInUser(test.app);
    // Page one's refresh: the server rotated the token, but the page reloaded before reading the
    // answer. Page two sends the same token; so may another tab at the same moment.
    const lost = (await refresh(session)).json<{ token: string; refreshToken: string }>();
    const [again, tab] = await Promise.all([refresh(session), refresh(session)]);
    expect([again.statusCode, tab.statusCode]).toEqual([200, 200]);
    const next = again.json<{ token: string; refreshToken: string }>();
    expect(
      new Set([
        lost.refreshToken,
        next.refreshToken,
        tab.json<{ refreshToken: string }>().refreshToken,
      ]).size,
    ).toBe(3);
    const details = await test.app.inject({
      method: 'GET',
      url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`,
      headers: authHeaders({ token: next.token, secval: session.secval }),
    });
    expect(details.statusCode).toBe(200);
    expect((await refresh(next)).statusCode).toBe(200);
  });

  it('refuses a refresh token presented with another session’s access token', async () => {
    const one = await signedInUser(test.app);
    const two = await signedInUser(test.app);
    const response = await refresh({ token: two.token, refreshToken: one.refreshToken });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an unknown refresh token and a missing one', async () => {
    const session = await signedInUser(test.app);
    expect((await refresh({ token: session.token, refreshToken: 'made-up' })).statusCode).toBe(401);
    const missing = await post('/api/auth/refreshToken', { token: session.token });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errors: [{ field: 'refreshToken', rule: 'required' }] });
  });
});

describe('e-mail verification', () => {
  it('EmailVerifyUserAsync sends a link that ConfirmEmail accepts once', async () => {
    const session = await signedInUser(test.app);
    const send = await test.app.inject({
      method: 'GET',
      url: `/api/auth/EmailVerifyUserAsync?UserEmail=${encodeURIComponent(JSON.stringify({ Email: session.emailID }))}`,
      headers: authHeaders(session),
    });
    expect(send.statusCode).toBe(200);
    expect(send.json()).toMatchObject({ isSuccess: true });
    const link = await linkFromLatestEmail(test, session.emailID);
    expect(link.pathname).toBe('/confirmEmail');
    const confirm = await post('/api/auth/ConfirmEmail', {
      Email: link.searchParams.get('email'),
      Token: link.searchParams.get('token'),
    });
    expect(confirm.json()).toEqual({
      isSuccess: true,
      message: 'Your email has been verified successfully.',
    });
    expect(
      (await findUserByEmail(test.database.connection.db, session.emailID))?.emailConfirmed,
    ).toBe(true);
  });

  it('a newer verification e-mail makes the older link stop working', async () => {
    const session = await signedInUser(test.app);
    const older = await linkFromLatestEmail(test, session.emailID);
    await test.app.inject({
      method: 'GET',
      url: `/api/auth/EmailVerifyUserAsync?UserEmail=${encodeURIComponent(JSON.stringify({ Email: session.emailID }))}`,
      headers: authHeaders(session),
    });
    const response = await post('/api/auth/ConfirmEmail', {
      Email: session.emailID,
      Token: older.searchParams.get('token'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: AUTH_MESSAGES.verifyLinkInvalid });
  });

  it('refuses a made-up token and another user’s token', async () => {
    const one = await signedInUser(test.app);
    const two = await signedInUser(test.app);
    const link = await linkFromLatestEmail(test, one.emailID);
    expect(
      (await post('/api/auth/ConfirmEmail', { Email: one.emailID, Token: 'made-up' })).statusCode,
    ).toBe(400);
    expect(
      (
        await post('/api/auth/ConfirmEmail', {
          Email: two.emailID,
          Token: link.searchParams.get('token'),
        })
      ).statusCode,
    ).toBe(400);
  });

  it('refuses an expired link', async () => {
    const session = await signedInUser(test.app);
    const link = await linkFromLatestEmail(test, session.emailID);
    await test.database.connection.db
      .update(schema.emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.emailTokens.purpose, 'verify-email'));
    const response = await post('/api/auth/ConfirmEmail', {
      Email: session.emailID,
      Token: link.searchParams.get('token'),
    });
    expect(response.statusCode).toBe(400);
  });

  it('will not send a verification e-mail for another user’s address', async () => {
    const one = await signedInUser(test.app);
    const response = await test.app.inject({
      method: 'GET',
      url: `/api/auth/EmailVerifyUserAsync?UserEmail=${encodeURIComponent(JSON.stringify({ Email: uniqueEmail() }))}`,
      headers: authHeaders(one),
    });
    expect(response.statusCode).toBe(403);
  });

  it('answers a UserEmail that is not JSON with 400', async () => {
    const one = await signedInUser(test.app);
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/auth/EmailVerifyUserAsync?UserEmail=oops',
      headers: authHeaders(one),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'UserEmail' }] });
  });
});

describe('password recovery', () => {
  const forget = async (Email: string) =>
    post('/api/auth/ForgetPassword', { Email, altcha: await solvedCaptcha(test.app) });

  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    const stranger = uniqueEmail();
    const known = await forget(email);
    const unknown = await forget(stranger);
    expect(known.json()).toEqual({ isSuccess: true, message: FORGET_PASSWORD_MESSAGE });
    expect(unknown.json()).toEqual(known.json());
    expect(await listOutboxMessages(test.database.connection.db, { to: stranger })).toHaveLength(0);
    const [mail] = await listOutboxMessages(test.database.connection.db, { to: email });
    expect(mail?.subject).toBe('Reset your RateLens password');
  });

  it('requires a solved bot check', async () => {
    const response = await post('/api/auth/ForgetPassword', { Email: uniqueEmail() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'altcha', rule: 'required' }] });
  });

  it('resets the password with the e-mailed link once, and ends existing sessions', async () => {
    const session = await signedInUser(test.app);
    await forget(session.emailID);
    const link = await linkFromLatestEmail(test, session.emailID);
    expect(link.pathname).toBe('/resetPassword');
    const NewPassword = 'Brand-New-Pass-7&';
    const body = {
      NewPassword,
      ConfirmPassword: NewPassword,
      Email: link.searchParams.get('email'),
      Token: link.searchParams.get('token'),
    };
    const reset = await post('/api/auth/ResetPassword', body);
    expect(reset.json()).toEqual({ isSuccess: true, message: AUTH_MESSAGES.resetDone });
    expect((await login(test.app, session.emailID)).statusCode).toBe(401);
    expect((await login(test.app, session.emailID, NewPassword)).statusCode).toBe(200);
    const again = await post('/api/auth/ResetPassword', body);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: AUTH_MESSAGES.resetLinkInvalid });
    const old = await test.app.inject({
      method: 'GET',
      url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`,
      headers: authHeaders(session),
    });
    expect(old.statusCode).toBe(401);
  });

  it('leaves one live reset link however many are asked for at once, and none once it is used', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    // Asked for at the same moment, each request spent the links before either's was written.
    const captchas = await Promise.all(Array.from({ length: 6 }, () => solvedCaptcha(test.app)));
    const answers = await Promise.all(
      captchas.map((altcha) => post('/api/auth/ForgetPassword', { Email: email, altcha })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const live = async () => {
      const { rows } = await test.database.connection.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM email_tokens t JOIN users u ON u.id = t.user_id
          WHERE u.email = $1 AND t.purpose = 'reset-password' AND t.used_at IS NULL`,
        [email],
      );
      return rows[0]?.n;
    };
    expect(await live()).toBe(1);

    // A second live link (as such a race left before), used after the first: dead with it.
    const user = await findUserByEmail(test.database.connection.db, email);
    const second = randomToken();
    await insertEmailToken(test.database.connection.db, {
      userId: user?.id ?? '',
      purpose: 'reset-password',
      tokenHash: hashToken(second),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const link = await linkFromLatestEmail(test, email);
    const reset = (Token: string | null, NewPassword: string) =>
      post('/api/auth/ResetPassword', {
        NewPassword,
        ConfirmPassword: NewPassword,
        Email: email,
        Token,
      });
    expect((await reset(link.searchParams.get('token'), 'Brand-New-Pass-7&')).statusCode).toBe(200);
    expect(await live()).toBe(0);
    expect((await reset(second, 'Other-New-Pass-8&')).statusCode).toBe(400);
  });

  it('answers a reset and a request for a new link made at the same moment, never a 500', async () => {
    // Each took the account's row and the links in the other order: a deadlock, one answer 500.
    const email = uniqueEmail();
    await register(test.app, email);
    for (let round = 0; round < 20; round++) {
      await forget(email);
      const link = await linkFromLatestEmail(test, email);
      const NewPassword = `Round-${round}-Pass-7&`;
      const altcha = await solvedCaptcha(test.app);
      const answers = await Promise.all([
        post('/api/auth/ResetPassword', {
          NewPassword,
          ConfirmPassword: NewPassword,
          Email: email,
          Token: link.searchParams.get('token'),
        }),
        post('/api/auth/ForgetPassword', { Email: email, altcha }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).not.toContain(500);
    }
  });

  it('refuses an expired reset link', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    await forget(email);
    const link = await linkFromLatestEmail(test, email);
    await test.database.connection.db
      .update(schema.emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.emailTokens.purpose, 'reset-password'));
    const response = await post('/api/auth/ResetPassword', {
      NewPassword: 'Brand-New-Pass-7&',
      ConfirmPassword: 'Brand-New-Pass-7&',
      Email: email,
      Token: link.searchParams.get('token'),
    });
    expect(response.statusCode).toBe(400);
  });

  it('uses the reset-screen wording for a mismatched confirmation', async () => {
    const response = await post('/api/auth/ResetPassword', {
      NewPassword: 'Brand-New-Pass-7&',
      ConfirmPassword: 'Other-Pass-7&',
      Email: uniqueEmail(),
      Token: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [{ field: 'ConfirmPassword', message: PASSWORD_MESSAGES.resetMismatch }],
    });
  });
});
