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
