import {
  EMAIL_CONFIRMED_MESSAGE,
  FORGET_PASSWORD_MESSAGE,
  normaliseEmail,
  ROLES,
  type ConfirmEmailRequest,
  type ForgetPasswordRequest,
  type LoginRequest,
  type LoginResponse,
  type RefreshRequest,
  type RefreshResponse,
  type RegisterRequest,
  type ResetPasswordRequest,
  type Result,
} from '@ratelens/core';
import {
  audit,
  clearThrottle,
  consumeEmailToken,
  consumeRefreshToken,
  countAttempt,
  findEmailToken,
  findRefreshToken,
  findSession,
  findSessionWithUser,
  findThrottle,
  findUserByEmail,
  findUserById,
  insertEmailToken,
  insertRefreshToken,
  insertSession,
  insertUser,
  lockThrottle,
  lockUser,
  recordFailure,
  revokeSession,
  revokeUserSessions,
  spendEmailTokens,
  updateUser,
  type Database,
  type Pool,
  type EmailTokenPurpose,
  type UserRow,
} from '@ratelens/db';
import type { CaptchaService } from '../captcha/captcha-service.ts';
import type { Config } from '../config.ts';
import { clientKey } from '../http/client-key.ts';
import { conflict, fieldError, forbidden, tooManyRequests, unauthorized } from '../http/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { passwordResetEmail, verificationEmail } from '../mail/templates.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';
import { SessionCache } from './session-cache.ts';
import { hashToken, randomToken, sameHash, type AccessTokens } from './tokens.ts';

export interface AuthContext {
  userId: string;
  sessionId: string;
  email: string;
  role: string;
}

/**
 * Whether an account id a legacy call sends is `accountId`. An id is a UUID, the same whatever
 * its letters' case (PostgreSQL writes it in lower case): a client that upper-cases its own id
 * does not name another account.
 */
export function sameAccountId(sent: string, accountId: string): boolean {
  return sent.trim().toLowerCase() === accountId.toLowerCase();
}

export interface AuthDeps {
  db: Database;
  /** The same database's pool, for the prepared session lookup of every authenticated call. */
  pool: Pool;
  mailer: Mailer;
  captcha: CaptchaService;
  tokens: AccessTokens;
  config: Config;
  publicUrl: string;
}

export const AUTH_MESSAGES = {
  invalidLogin: 'Invalid e-mail or password.',
  sessionEnded: 'Your session has ended. Please sign in again.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  captchaFailed: 'The bot check failed. Please try again.',
  emailTaken: 'An account with this e-mail address already exists. Please sign in instead.',
  registered:
    'Your account has been created. We have sent a verification link to your e-mail address.',
  loggedIn: 'Signed in successfully.',
  loggedOut: 'You have been signed out.',
  resetDone: 'Your password has been reset. You can now sign in with your new password.',
  resetLinkInvalid: 'This password reset link is invalid or has expired. Please ask for a new one.',
  verifyLinkInvalid:
    'This verification link is invalid or has expired. Please ask for a new one from your profile.',
  alreadyVerified: 'Your email address is already verified.',
} as const;

/** Failed sign-ins beyond which each further answer is slowed down, before the lock. */
const SLOW_AFTER_FAILURES = 3;
const MAX_DELAY_MS = 4000;
/** The per-address lock needs many more failures than the per-account one: offices share an address. */
const ADDRESS_THRESHOLD_FACTOR = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a locked sign-in is told, with the minutes left. */
function lockedFor(minutes: number): string {
  const whole = Math.max(1, minutes);
  return `Too many failed sign-in attempts. Please try again in ${whole} minute${whole === 1 ? '' : 's'}.`;
}

export function loginDelayMs(failures: number): number {
  if (failures < SLOW_AFTER_FAILURES) return 0;
  return Math.min(250 * 2 ** (failures - SLOW_AFTER_FAILURES), MAX_DELAY_MS);
}

/**
 * How long a used refresh token may be presented again without ending its session: a page that
 * reloads while its refresh is under way loses the answer, and the next page sends the token the
 * server has just rotated (two reloads 100 ms apart signed the user out everywhere). Long enough
 * for a slow phone's round trip; short enough that a stolen token is seldom still good (ADR 0008).
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

export class AuthService {
  /** Sessions looked up in the last SESSION_CACHE_MS (docs/decisions/0015-search-entitlements.md). */
  private readonly sessions: SessionCache;

  constructor(private readonly deps: AuthDeps) {
    this.sessions = new SessionCache(deps.config.SESSION_CACHE_MS);
  }

  private get db() {
    return this.deps.db;
  }

  private link(path: string, email: string, token: string): string {
    const url = new URL(path, this.deps.publicUrl);
    url.searchParams.set('email', email);
    url.searchParams.set('token', token);
    return url.toString();
  }

  private async issueEmailToken(
    user: UserRow,
    purpose: EmailTokenPurpose,
    ttlMs: number,
  ): Promise<string> {
    const token = randomToken();
    await this.db.transaction(async (tx) => {
      // The account's row locked first: two requests at once each spent the links before either's
      // was written, and both links lived (found by a race audit).
      await lockUser(tx, user.id);
      await spendEmailTokens(tx, user.id, purpose);
      await insertEmailToken(tx, {
        userId: user.id,
        purpose,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + ttlMs),
      });
    });
    return token;
  }

  private async sendVerification(user: UserRow): Promise<void> {
    const ttl = this.deps.config.VERIFY_EMAIL_TOKEN_TTL;
    const token = await this.issueEmailToken(user, 'verify-email', ttl);
    await this.deps.mailer.send(
      verificationEmail(
        user.email,
        this.link('/confirmEmail', user.email, token),
        Math.round(ttl / 3_600_000),
      ),
    );
  }

  private async requireCaptcha(payload: string): Promise<void> {
    if (!(await this.deps.captcha.redeem(payload)))
      throw fieldError('altcha', 'captcha', AUTH_MESSAGES.captchaFailed);
  }

  async register(body: RegisterRequest): Promise<Result> {
    await this.requireCaptcha(body.altcha);
    const email = normaliseEmail(body.email);
    const user = await insertUser(this.db, {
      email,
      fullName: body.FullName?.trim() || email,
      passwordHash: await hashPassword(body.Password),
      // Whatever RoleName says: every registration is a web user (spec §6).
      role: ROLES.webUser,
    });
    if (!user) throw conflict(AUTH_MESSAGES.emailTaken);
    await audit(this.db, { userId: user.id, action: 'user.registered' });
    await this.sendVerification(user);
    return { isSuccess: true, message: AUTH_MESSAGES.registered };
  }

  private async lockMessage(email: string, address: string): Promise<string | undefined> {
    for (const [scope, key] of [
      ['login-account', email],
      ['login-address', clientKey(address)],
    ] as const) {
      const row = await findThrottle(this.db, scope, key);
      if (row?.lockedUntil && row.lockedUntil.getTime() > Date.now()) {
        return lockedFor(Math.ceil((row.lockedUntil.getTime() - Date.now()) / 60_000));
      }
    }
    return undefined;
  }

  /** A failed sign-in, the account's `failures`th in its window (counted by countAttempt). */
  private async failLogin(
    email: string,
    address: string,
    userId: string | undefined,
    failures: number,
  ): Promise<never> {
    const { LOGIN_LOCK_THRESHOLD: threshold, LOGIN_LOCK_MINUTES: lockMinutes } = this.deps.config;
    await recordFailure(this.db, 'login-address', clientKey(address), {
      windowMinutes: lockMinutes,
      threshold: threshold * ADDRESS_THRESHOLD_FACTOR,
      lockMinutes,
    });
    await audit(this.db, { userId: userId ?? null, action: 'login.failed', detail: { address } });
    if (failures >= threshold) {
      await lockThrottle(this.db, 'login-account', email, lockMinutes);
      throw tooManyRequests((await this.lockMessage(email, address)) ?? lockedFor(lockMinutes));
    }
    await sleep(loginDelayMs(failures));
    throw unauthorized(AUTH_MESSAGES.invalidLogin);
  }

  async login(body: LoginRequest, address: string): Promise<LoginResponse> {
    const email = normaliseEmail(body.UserName);
    const locked = await this.lockMessage(email, address);
    if (locked) throw tooManyRequests(locked);
    const { LOGIN_LOCK_THRESHOLD: threshold, LOGIN_LOCK_MINUTES: lockMinutes } = this.deps.config;
    // Counted before argon2 compares the password: guesses sent at the same moment all passed the
    // lock check above before any failure was recorded, and each was compared (ADR 0008).
    const attempt = await countAttempt(this.db, 'login-account', email, lockMinutes);
    if (!attempt || attempt.failures > threshold)
      throw tooManyRequests((await this.lockMessage(email, address)) ?? lockedFor(lockMinutes));
    const user = await findUserByEmail(this.db, email);
    const ok = await verifyPassword(
      user?.passwordHash ?? (await dummyPasswordHash()),
      body.password,
    );
    if (!user || !ok) return this.failLogin(email, address, user?.id, attempt.failures);
    await clearThrottle(this.db, 'login-account', email);
    return this.startSession(user);
  }

  private async startSession(user: UserRow): Promise<LoginResponse> {
    const secval = randomToken();
    const refreshToken = randomToken();
    const session = await this.db.transaction(async (tx) => {
      const created = await insertSession(tx, {
        userId: user.id,
        secretHash: hashToken(secval),
        expiresAt: new Date(Date.now() + this.deps.config.SESSION_TTL),
      });
      await insertRefreshToken(tx, created.id, hashToken(refreshToken));
      await updateUser(tx, user.id, { lastLoginAt: new Date() });
      await audit(tx, {
        userId: user.id,
        action: 'login.succeeded',
        detail: { sessionId: created.id },
      });
      return created;
    });
    const access = await this.deps.tokens.sign({ userId: user.id, sessionId: session.id });
    return {
      isSuccess: true,
      message: AUTH_MESSAGES.loggedIn,
      token: access.token,
      emailID: user.email,
      userID: user.id,
      userName: user.fullName || user.email,
      secval,
      refreshToken,
      expireDate: access.expiresAt.toISOString(),
      role: user.role,
    };
  }

  /**
   * Rotates the refresh token. A token presented again after REFRESH_REUSE_GRACE_MS ends its whole
   * session (reuse detection); again within it, it is rotated once more (ADR 0008).
   */
  async refresh(body: RefreshRequest): Promise<RefreshResponse> {
    const verified = await this.deps.tokens.verify(body.token);
    if (!verified) throw unauthorized(AUTH_MESSAGES.sessionEnded);
    const stored = await findRefreshToken(this.db, hashToken(body.refreshToken));
    if (!stored || stored.sessionId !== verified.claims.sessionId)
      throw unauthorized(AUTH_MESSAGES.sessionEnded);
    const session = await findSession(this.db, stored.sessionId);
    if (!session || session.revokedAt || session.expiresAt.getTime() < Date.now()) {
      throw unauthorized(AUTH_MESSAGES.sessionEnded);
    }
    const next = randomToken();
    const rotated = await this.db.transaction(async (tx) => {
      if (!(await consumeRefreshToken(tx, stored.id, REFRESH_REUSE_GRACE_MS))) return false;
      await insertRefreshToken(tx, session.id, hashToken(next));
      return true;
    });
    if (!rotated) {
      await revokeSession(this.db, session.id, 'refresh-token-reuse');
      this.sessions.forget(session.id);
      await audit(this.db, {
        userId: session.userId,
        action: 'session.revoked',
        detail: { sessionId: session.id, reason: 'refresh-token-reuse' },
      });
      throw unauthorized(AUTH_MESSAGES.sessionEnded);
    }
    const access = await this.deps.tokens.sign({ userId: session.userId, sessionId: session.id });
    return { token: access.token, refreshToken: next, expiration: access.expiresAt.toISOString() };
  }

  /** Resolves the bearer token and secret_key header of a call to the signed-in user. */
  async authenticate(
    bearer: string | undefined,
    secretKey: string | undefined,
  ): Promise<AuthContext> {
    if (!bearer) throw unauthorized();
    const verified = await this.deps.tokens.verify(bearer);
    if (!verified) throw unauthorized(AUTH_MESSAGES.sessionEnded);
    if (verified.expired) throw unauthorized(AUTH_MESSAGES.sessionExpired);
    if (!secretKey) throw unauthorized(AUTH_MESSAGES.sessionEnded);
    const session = await this.sessions.get(verified.claims.sessionId, (id) =>
      findSessionWithUser(this.deps.pool, id),
    );
    if (
      !session ||
      session.revokedAt ||
      session.expiresAt.getTime() < Date.now() ||
      !sameHash(session.secretHash, hashToken(secretKey))
    ) {
      throw unauthorized(AUTH_MESSAGES.sessionEnded);
    }
    return {
      userId: session.userId,
      sessionId: session.id,
      email: session.email,
      role: session.role,
    };
  }

  /**
   * Ends a session. A person signing out after the access token expired still ends it on the
   * server: the session's current refresh token is accepted in place of the bearer token.
   */
  async logout(credentials: {
    bearer?: string;
    secretKey?: string;
    refreshToken?: string;
  }): Promise<Result> {
    const session = await this.authenticate(credentials.bearer, credentials.secretKey).then(
      (auth) => ({ id: auth.sessionId, userId: auth.userId }),
      async (error: unknown) => {
        const stored = credentials.refreshToken
          ? await findRefreshToken(this.db, hashToken(credentials.refreshToken))
          : undefined;
        const found =
          stored && !stored.usedAt ? await findSession(this.db, stored.sessionId) : undefined;
        if (!found || found.revokedAt) throw error;
        return { id: found.id, userId: found.userId };
      },
    );
    await revokeSession(this.db, session.id, 'logout');
    this.sessions.forget(session.id);
    await audit(this.db, {
      userId: session.userId,
      action: 'logout',
      detail: { sessionId: session.id },
    });
    return { isSuccess: true, message: AUTH_MESSAGES.loggedOut };
  }

  async forgetPassword(body: ForgetPasswordRequest): Promise<Result> {
    await this.requireCaptcha(body.altcha);
    const user = await findUserByEmail(this.db, normaliseEmail(body.Email));
    if (user) {
      const ttl = this.deps.config.RESET_PASSWORD_TOKEN_TTL;
      const token = await this.issueEmailToken(user, 'reset-password', ttl);
      await this.deps.mailer.send(
        passwordResetEmail(
          user.email,
          this.link('/resetPassword', user.email, token),
          Math.round(ttl / 60_000),
        ),
      );
      await audit(this.db, { userId: user.id, action: 'password.reset-requested' });
    }
    return { isSuccess: true, message: FORGET_PASSWORD_MESSAGE };
  }

  async resetPassword(body: ResetPasswordRequest): Promise<Result> {
    const user = await findUserByEmail(this.db, normaliseEmail(body.Email));
    const token = await findEmailToken(this.db, hashToken(body.Token), 'reset-password');
    if (
      !user ||
      !token ||
      token.userId !== user.id ||
      token.usedAt ||
      token.expiresAt.getTime() < Date.now()
    ) {
      throw fieldError('Token', 'invalid', AUTH_MESSAGES.resetLinkInvalid);
    }
    const passwordHash = await hashPassword(body.NewPassword);
    const done = await this.db.transaction(async (tx) => {
      // The account's row first, as a new link takes it: in the other order, a reset and a request
      // for a link at the same moment each held what the other waited for (a deadlock, a 500).
      await lockUser(tx, user.id);
      if (!(await consumeEmailToken(tx, token.id))) return false;
      // Any other reset link of the account dies with this one.
      await spendEmailTokens(tx, user.id, 'reset-password');
      await updateUser(tx, user.id, { passwordHash });
      // A reset is what someone does when a password may be known to another: end every session.
      await revokeUserSessions(tx, user.id, 'password-reset');
      await clearThrottle(tx, 'login-account', user.email);
      await audit(tx, { userId: user.id, action: 'password.reset' });
      return true;
    });
    if (!done) throw fieldError('Token', 'invalid', AUTH_MESSAGES.resetLinkInvalid);
    this.sessions.clear();
    return { isSuccess: true, message: AUTH_MESSAGES.resetDone };
  }

  async sendEmailVerification(auth: AuthContext, email: string): Promise<Result> {
    if (normaliseEmail(email) !== auth.email)
      throw forbidden('You can only verify your own e-mail address.');
    const user = await findUserById(this.db, auth.userId);
    if (!user) throw unauthorized(AUTH_MESSAGES.sessionEnded);
    if (user.emailConfirmed) return { isSuccess: true, message: AUTH_MESSAGES.alreadyVerified };
    await this.sendVerification(user);
    return {
      isSuccess: true,
      message: `We have sent a verification link to ${user.email}. Please open it to verify your e-mail address.`,
    };
  }

  async confirmEmail(body: ConfirmEmailRequest): Promise<Result> {
    const user = await findUserByEmail(this.db, normaliseEmail(body.Email));
    const token = await findEmailToken(this.db, hashToken(body.Token), 'verify-email');
    if (!user || !token || token.userId !== user.id)
      throw fieldError('Token', 'invalid', AUTH_MESSAGES.verifyLinkInvalid);
    // A second click on the link that verified the address is not an error for the person.
    if (token.usedAt && user.emailConfirmed)
      return { isSuccess: true, message: EMAIL_CONFIRMED_MESSAGE };
    if (token.usedAt || token.expiresAt.getTime() < Date.now())
      throw fieldError('Token', 'invalid', AUTH_MESSAGES.verifyLinkInvalid);
    const done = await this.db.transaction(async (tx) => {
      await lockUser(tx, user.id);
      if (!(await consumeEmailToken(tx, token.id))) return false;
      await updateUser(tx, user.id, { emailConfirmed: true });
      await audit(tx, { userId: user.id, action: 'email.verified' });
      return true;
    });
    if (!done && !(await findUserById(this.db, user.id))?.emailConfirmed) {
      throw fieldError('Token', 'invalid', AUTH_MESSAGES.verifyLinkInvalid);
    }
    return { isSuccess: true, message: EMAIL_CONFIRMED_MESSAGE };
  }
}
