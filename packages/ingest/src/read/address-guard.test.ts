import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveFiles } from '../testing/file-server.ts';
import { fetchPublic, isPrivateAddress } from './address-guard.ts';
import { readHptTxt } from './hpt-txt.ts';
import { openMrf } from './index.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '0:0:0:0:0:ffff:7f00:1',
    '::7f00:1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::808:808',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '::ffff:0:7f00:1',
    '::ffff:0:10.1.1.1',
    'fec0::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '100::1',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::',
    '2001:db8:ffff::7f00:1',
    'example.org',
  ])('%s is not', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('a download from a private address', () => {
  const refused =
    /is on a private network: files are read only from public addresses\. Set INGEST_PRIVATE_URLS=allow/;

  it.each(['http://127.0.0.1:9/file.json', 'http://[::1]:9/file.json', 'http://169.254.169.254/'])(
    'is refused for %s, an address in the URL',
    async (url) => {
      vi.stubEnv('INGEST_PRIVATE_URLS', '');
      await expect(fetchPublic(url, {})).rejects.toThrow(refused);
    },
  );

  it('is refused for a name when its socket looks it up, before any byte is asked for', async () => {
    const server = await serveFiles({ '/file.json': Buffer.from('{}') });
    try {
      vi.stubEnv('INGEST_PRIVATE_URLS', '');
      const byName = server.url('/file.json').replace('127.0.0.1', 'localhost');
      await expect(fetchPublic(byName, {})).rejects.toThrow(/^localhost is on a private network:/);
      await expect(openMrf(byName)).rejects.toMatchObject({ code: 'private-address' });
      await expect(openMrf(server.url('/file.json'))).rejects.toMatchObject({
        code: 'private-address',
      });
      expect(server.statuses).toEqual([]);

      vi.stubEnv('INGEST_PRIVATE_URLS', 'allow');
      const response = await fetchPublic(byName, {});
      expect(await response.text()).toBe('{}');
    } finally {
      await server.close();
    }
  });
});

describe('a download that is redirected', () => {
  /** A server whose every path redirects to `to(path)`, or answers a tiny JSON at /file.json. */
  async function redirecting(to: (path: string, base: string) => string) {
    const server = createServer((request, response) => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (request.url === '/file.json') response.end('{"hospital_name":');
      else response.writeHead(302, { location: to(request.url ?? '/', base) }).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('follows each redirect, checking its address', async () => {
    const server = await redirecting((_path, base) => `${base}/file.json`);
    try {
      // The redirect is followed to the file, which is then read (and found cut short).
      await expect(openMrf(`${server.base}/old.json`)).rejects.toMatchObject({
        code: 'truncated-json',
      });
    } finally {
      await server.close();
    }
  });

  it('refuses a redirect to a private address, for a price file and a cms-hpt.txt list', async () => {
    // Only this machine serves here: private addresses are allowed for the first request, and
    // no longer once it is made, so the redirect's is the check that refuses.
    const asked: string[] = [];
    const server = await redirecting((path, base) => {
      asked.push(path);
      vi.stubEnv('INGEST_PRIVATE_URLS', '');
      return `${base.replace('127.0.0.1', 'localhost')}/file.json`;
    });
    try {
      const refused = openMrf(`${server.base}/old.json`);
      await expect(refused).rejects.toMatchObject({ code: 'private-address' });
      await expect(refused).rejects.toThrow(/^localhost is on a private network/);
      vi.stubEnv('INGEST_PRIVATE_URLS', 'allow');
      await expect(readHptTxt(`${server.base}/cms-hpt.txt`)).rejects.toThrow(
        /localhost is on a private network/,
      );
      expect(asked).toEqual(['/old.json', '/cms-hpt.txt']);
    } finally {
      await server.close();
    }
  });

  it('refuses a redirect to another scheme, and a loop', async () => {
    const toFile = await redirecting(() => 'file:///etc/passwd');
    const loop = await redirecting((path) => path);
    try {
      await expect(openMrf(`${toFile.base}/a.json`)).rejects.toThrow(
        /redirects to file: addresses, not an http\(s\) one/,
      );
      await expect(openMrf(`${loop.base}/a.json`)).rejects.toThrow(/redirects more than 20 times/);
    } finally {
      await toFile.close();
      await loop.close();
    }
  });
});
