import { isIP } from 'node:net';
import { ipv6Groups } from '@ratelens/core';

/**
 * The client a rate limit or the sign-in lock counts: an IPv4 address (written as IPv6 or not),
 * or an IPv6 address's /64. One subscriber is given a /64 and can use any address in it, so
 * counting IPv6 addresses one by one would let a client start afresh with every request.
 */
export function clientKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const g = ipv6Groups(address);
  const [, , , , , marker = 0, high = 0, low = 0] = g;
  if (g.slice(0, 5).every((group) => group === 0) && marker === 0xffff)
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  return `${g
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
