import type { SessionWithUser } from '@ratelens/db';
import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.ts';

const row = (id: string): SessionWithUser => ({
  id,
  userId: 'u1',
  secretHash: 'h',
  expiresAt: new Date(0),
  revokedAt: null,
  email: 'a@example.com',
  role: 'HCL Web User',
});

function counting() {
  const loads: string[] = [];
  return {
    loads,
    load: (id: string) => {
      loads.push(id);
      return Promise.resolve(row(id));
    },
  };
}

describe('SessionCache', () => {
  it('looks a session up once within its lifetime and again after it', async () => {
    let clock = 0;
    const cache = new SessionCache(5000, () => clock);
    const { loads, load } = counting();
    await cache.get('s1', load);
    clock = 4999;
    await cache.get('s1', load);
    expect(loads).toEqual(['s1']);
    clock = 5000;
    await cache.get('s1', load);
    expect(loads).toEqual(['s1', 's1']);
  });

  it('shares one lookup between concurrent calls', async () => {
    const cache = new SessionCache(5000, () => 0);
    const { loads, load } = counting();
    await Promise.all([cache.get('s1', load), cache.get('s1', load), cache.get('s2', load)]);
    expect(loads).toEqual(['s1', 's2']);
  });

  it('looks a forgotten session up again at once', async () => {
    const cache = new SessionCache(5000, () => 0);
    const { loads, load } = counting();
    await cache.get('s1', load);
    cache.forget('s1');
    await cache.get('s1', load);
    cache.clear();
    await cache.get('s1', load);
    expect(loads).toEqual(['s1', 's1', 's1']);
  });

  it('does not remember a failed lookup', async () => {
    const cache = new SessionCache(5000, () => 0);
    await expect(cache.get('s1', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const { loads, load } = counting();
    await cache.get('s1', load);
    expect(loads).toEqual(['s1']);
  });

  it('looks every call up when its lifetime is 0', async () => {
    const cache = new SessionCache(0, () => 0);
    const { loads, load } = counting();
    await cache.get('s1', load);
    await cache.get('s1', load);
    expect(loads).toEqual(['s1', 's1']);
  });
});
