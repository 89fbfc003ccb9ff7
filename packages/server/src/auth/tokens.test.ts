import { describe, expect, it } from 'vitest';
import { AccessTokens, hashToken, randomToken, sameHash } from './tokens.ts';

const secret = 'x'.repeat(40);

describe('AccessTokens', () => {
  it('round-trips the user and session of a token it signed', async () => {
    const tokens = new AccessTokens(secret, 60_000);
    const { token, expiresAt } = await tokens.sign({ userId: 'u1', sessionId: 's1' });
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(await tokens.verify(token)).toEqual({
      claims: { userId: 'u1', sessionId: 's1' },
      expired: false,
    });
  });

  it('says a token whose lifetime is over is expired but still ours', async () => {
    const tokens = new AccessTokens(secret, -5_000);
    const { token } = await tokens.sign({ userId: 'u1', sessionId: 's1' });
    expect(await tokens.verify(token)).toEqual({
      claims: { userId: 'u1', sessionId: 's1' },
      expired: true,
    });
  });

  it('refuses a token signed with another secret, and garbage', async () => {
    const { token } = await new AccessTokens('y'.repeat(40), 60_000).sign({
      userId: 'u1',
      sessionId: 's1',
    });
    const tokens = new AccessTokens(secret, 60_000);
    expect(await tokens.verify(token)).toBeUndefined();
    expect(await tokens.verify('not.a.token')).toBeUndefined();
  });
});

describe('token hashing', () => {
  it('makes distinct random tokens and compares hashes', () => {
    const a = randomToken();
    expect(a).not.toBe(randomToken());
    expect(a.length).toBeGreaterThanOrEqual(43);
    expect(sameHash(hashToken(a), hashToken(a))).toBe(true);
    expect(sameHash(hashToken(a), hashToken(`${a}x`))).toBe(false);
  });
});

describe('AccessTokens.verify refuses what it did not sign', () => {
  const tokens = new AccessTokens(secret, 60_000);
  const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('refuses an unsigned (alg none) token carrying valid claims', async () => {
    const { token } = await tokens.sign({ userId: 'u1', sessionId: 's1' });
    const [, payload] = token.split('.');
    expect(await tokens.verify(`${segment({ alg: 'none' })}.${payload}.`)).toBeUndefined();
  });

  it('refuses a token whose claims were changed after signing', async () => {
    const { token } = await tokens.sign({ userId: 'u1', sessionId: 's1' });
    const [header, , signature] = token.split('.');
    const forged = segment({ sid: 's2', sub: 'admin', iss: 'ratelens', exp: 9_999_999_999 });
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeUndefined();
  });

  it('refuses a correctly signed token from another issuer or without a lifetime', async () => {
    const key = new TextEncoder().encode(secret);
    const { SignJWT } = await import('jose');
    const otherIssuer = await new SignJWT({ sid: 's1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('someone-else')
      .setExpirationTime('5m')
      .sign(key);
    const noExpiry = await new SignJWT({ sid: 's1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('ratelens')
      .sign(key);
    expect(await tokens.verify(otherIssuer)).toBeUndefined();
    expect(await tokens.verify(noExpiry)).toBeUndefined();
  });
});
