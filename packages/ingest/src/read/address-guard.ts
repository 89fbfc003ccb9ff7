import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { MrfReadError } from './errors.ts';

/**
 * The addresses a download may not reach unless INGEST_PRIVATE_URLS=allow: this machine, private
 * networks, link-local (cloud metadata at 169.254.169.254), shared address space, benchmarking,
 * multicast and reserved ranges. The refresh downloads whatever a hospital's cms-hpt.txt names
 * and follows redirects: without this, a hospital's site could make the server read its own
 * network and show a little of the answer on a public page.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is in PRIVATE (an IPv4 address written as IPv6 counts as itself). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const privateAddressesAllowed = (): boolean => process.env.INGEST_PRIVATE_URLS === 'allow';

/**
 * Refuses a URL whose host is, or resolves to, a private address (isPrivateAddress), unless
 * INGEST_PRIVATE_URLS=allow. Checked before each request, redirects included. Not checked at
 * connect time: a name that resolves anew between the two (DNS rebinding) is not caught.
 */
export async function assertPublicAddress(url: URL): Promise<void> {
  if (privateAddressesAllowed()) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [host]
    : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  const inside = addresses.find(isPrivateAddress);
  if (inside !== undefined)
    throw new MrfReadError(
      'private-address',
      `${url.host} is on a private network (${inside}): files are read only from public ` +
        'addresses. Set INGEST_PRIVATE_URLS=allow to read from this network.',
    );
}
