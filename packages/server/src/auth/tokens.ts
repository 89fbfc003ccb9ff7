import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** A random secret for a link, a refresh token or a session key: 256 bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as hashes: a database dump cannot be replayed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export class AccessTokens {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlMs: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: AccessClaims): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + this.ttlMs);
    const token = await new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setIssuer('ratelens')
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, expiresAt };
  }

  /**
   * The claims of a token we signed; `expired` when only its lifetime is over. A refresh presents
   * the expired access token of its session, so it accepts that case.
   *
   * Every authenticated call verifies a token, so this checks the one form we sign (compact
   * HS256 with our issuer) with node:crypto directly: jose's Web Crypto path imported the key on
   * each call and took about 10% of the server's CPU in the search benchmark.
   */
  verify(token: string): Promise<{ claims: AccessClaims; expired: boolean } | undefined> {
    return Promise.resolve(this.verifySync(token));
  }

  private verifySync(token: string): { claims: AccessClaims; expired: boolean } | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = createHmac('sha256', this.key).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const protectedHeader = parseSegment(header);
    if (protectedHeader?.alg !== 'HS256' || protectedHeader.crit !== undefined) return undefined;
    const claims = parseSegment(payload);
    if (!claims || claims.iss !== 'ratelens' || typeof claims.exp !== 'number') return undefined;
    return toClaims(claims, claims.exp <= Math.floor(Date.now() / 1000));
  }
}

function parseSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function toClaims(payload: { sub?: unknown; sid?: unknown }, expired: boolean) {
  if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
  return { claims: { userId: payload.sub, sessionId: payload.sid }, expired };
}
