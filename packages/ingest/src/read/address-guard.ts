import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, fetch, type RequestInit, type Response } from 'undici';
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

function refusal(host: string, address: string): MrfReadError {
  return new MrfReadError(
    'private-address',
    `${host} is on a private network (${address}): files are read only from public addresses. ` +
      'Set INGEST_PRIVATE_URLS=allow to read from this network.',
  );
}

/** Refuses a URL whose host is a private IP address, unless INGEST_PRIVATE_URLS=allow. */
export function assertPublicHost(url: URL): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!privateAddressesAllowed() && isPrivateAddress(host)) throw refusal(url.host, host);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * dns.lookup for the sockets a download opens: a name that resolves to any private address is
 * refused (unless INGEST_PRIVATE_URLS=allow). Checked on the very addresses the socket is about
 * to connect to, so a name that answered a public address a moment before (DNS rebinding) is
 * caught too.
 */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const inside = addresses.find((entry) => isPrivateAddress(entry.address));
    if (inside && !privateAddressesAllowed())
      return callback(refusal(hostname, inside.address), []);
    const first = addresses[0];
    if (options.all) callback(null, addresses);
    else if (first) callback(null, first.address, first.family);
    else
      callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
  });
}

/** Connections whose every address is checked when it is looked up (publicLookup). */
const publicAgent = new Agent({ connect: { lookup: publicLookup } });

/**
 * A fetch that connects to public addresses only: an IP address in the URL is checked here, a
 * name when its socket looks it up. Its refusal is a MrfReadError `private-address`, not wrapped.
 * Redirects are the caller's, each hop through here (redirect: 'manual' is the caller's to ask).
 */
export async function fetchPublicAddress(url: URL, init: RequestInit): Promise<Response> {
  assertPublicHost(url);
  try {
    return await fetch(url, { ...init, dispatcher: publicAgent });
  } catch (error) {
    let cause: unknown = error;
    for (let depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause)
      if (cause instanceof MrfReadError) throw cause;
    throw error;
  }
}
