import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.ts';

describe('clientKey', () => {
  it('counts an IPv4 address as itself, written as IPv6 or not', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:cb00:7109')).toBe('203.0.113.9');
  });

  it('counts every IPv6 address of one /64 as one client, and another /64 as another', () => {
    const one = clientKey('2001:db8:1:2::1');
    expect(one).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe(one);
    expect(clientKey('2001:db8:1:3::1')).not.toBe(one);
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
