import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ipv6Groups } from '@ratelens/core';
import { Agent, fetch, type RequestInit, type Response } from 'undici';
import { MrfReadError } from './errors.ts';

/**
 * The addresses a download may not reach unless INGEST_PRIVATE_URLS=allow: this machine, private
 * networks, link-local (cloud metadata at 169.254.169.254), shared address space, benchmarking,
 * multicast and reserved ranges, and the IPv6 addresses that stand for them. The refresh
 * downloads whatever a hospital's cms-hpt.txt names and follows redirects: without this, a
 * hospital's site could make the server read its own network and show a little of the answer
 * on a public page.
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
  // IPv4-compatible (deprecated), with the unspecified and loopback addresses.
  ['::', 96],
  // NAT64 for local use (RFC 8215), discard-only, Teredo (an IPv4 address inside, obfuscated).
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['fc00::', 7],
  // Site-local (deprecated).
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/**
 * The IPv4 address an IPv6 one stands for: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) or 6to4 (2002:AABB:CCDD::); null for any other.
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zero(0, 5) && g[5] === 0xffff) return ipv4(g[6] ?? 0, g[7] ?? 0);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return ipv4(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x2002) return ipv4(g[1] ?? 0, g[2] ?? 0);
  return null;
}

/** Whether an IP address is in PRIVATE, an IPv6 one that stands for an IPv4 one as that. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 0) return false;
  const ipv4 = embeddedIpv4(address);
  return ipv4 === null ? PRIVATE.check(address, 'ipv6') : PRIVATE.check(ipv4, 'ipv4');
}

const privateAddressesAllowed = (): boolean => process.env.INGEST_PRIVATE_URLS === 'allow';

/**
 * Not the address the host resolved to: the message may be shown on the hospital's public page,
 * and the names inside a network are not for the world.
 */
function refusal(host: string): MrfReadError {
  return new MrfReadError(
    'private-address',
    `${host} is on a private network: files are read only from public addresses. ` +
      'Set INGEST_PRIVATE_URLS=allow to read from this network.',
  );
}

/** Refuses a URL whose host is a private IP address, unless INGEST_PRIVATE_URLS=allow. */
function assertPublicHost(url: URL): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!privateAddressesAllowed() && isPrivateAddress(host)) throw refusal(url.host);
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
    if (!privateAddressesAllowed() && addresses.some((entry) => isPrivateAddress(entry.address)))
      return callback(refusal(hostname), []);
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
 * One request, to a public address only: an IP address in the URL is checked here, a name when
 * its socket looks it up. A redirect is returned, not followed. Its refusal is a MrfReadError
 * `private-address`, not wrapped.
 */
async function fetchPublicAddress(url: URL, init: RequestInit): Promise<Response> {
  assertPublicHost(url);
  try {
    return await fetch(url, { ...init, redirect: 'manual', dispatcher: publicAgent });
  } catch (error) {
    let cause: unknown = error;
    for (let depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause)
      if (cause instanceof MrfReadError) throw cause;
    throw error;
  }
}

/** As browsers: more redirects than this is a loop. */
const MAX_REDIRECTS = 20;
/** The statuses fetch follows (a 300, 304, 305 or 306 with a Location is an answer). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A GET that follows redirects itself, each to a public address only (fetchPublicAddress): a
 * public URL may redirect to this machine or its network.
 */
export async function fetchPublic(
  url: string,
  init: { signal?: AbortSignal; headers?: Record<string, string> },
): Promise<Response> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const response = await fetchPublicAddress(current, init);
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || !location) return response;
    await response.body?.cancel();
    if (hop === MAX_REDIRECTS)
      throw new MrfReadError('http-error', `${url} redirects more than ${MAX_REDIRECTS} times.`);
    current = new URL(location, current);
    if (current.protocol !== 'http:' && current.protocol !== 'https:')
      throw new MrfReadError(
        'http-error',
        `${url} redirects to ${current.protocol} addresses, not an http(s) one.`,
      );
  }
}
