import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

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
   */
  async verify(token: string): Promise<{ claims: AccessClaims; expired: boolean } | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: 'ratelens',
        algorithms: ['HS256'],
      });
      return toClaims(payload, false);
    } catch (error) {
      if (error instanceof errors.JWTExpired) return toClaims(error.payload, true);
      return undefined;
    }
  }
}

function toClaims(payload: { sub?: unknown; sid?: unknown }, expired: boolean) {
  if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
  return { claims: { userId: payload.sub, sessionId: payload.sid }, expired };
}
