import { describe, expect, it } from 'vitest';
import { outboxServed } from './outbox-routes.ts';

describe('outboxServed', () => {
  it('serves the outbox outside production while the public address is this machine', () => {
    for (const PUBLIC_URL of [
      undefined,
      'http://localhost:3000',
      'http://LOCALHOST:3000',
      'http://127.0.0.1:3100',
      'http://127.0.0.2',
      'http://[::1]:3000',
    ])
      expect(outboxServed({ NODE_ENV: 'development', PUBLIC_URL }), PUBLIC_URL).toBe(true);
  });

  it('does not in production, nor on any other address', () => {
    expect(outboxServed({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost:3000' })).toBe(
      false,
    );
    for (const PUBLIC_URL of [
      'https://ratelens.example',
      'http://10.0.0.5:3000',
      'http://[::ffff:7f00:1]',
      'http://localhost.ratelens.example',
    ])
      expect(outboxServed({ NODE_ENV: 'development', PUBLIC_URL }), PUBLIC_URL).toBe(false);
  });
});
