import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_HEADERS, PAGE_POLICY } from './http/web-headers.ts';
import { createTestApp, register, uniqueEmail, type TestApp } from './test/app.ts';

const INDEX_HTML = '<!doctype html><title>RateLens</title><div id="root"></div>';
/** A script of the build, named after its content as Vite names them, with the copies it writes. */
const SCRIPT = Buffer.from(
  Array.from({ length: 300 }, (_, i) => `export const rate${i} = ${i * 1.5};`).join('\n'),
);

let test: TestApp;
let webDir: string;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'ratelens-web-'));
  await writeFile(path.join(webDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webDir, 'index.html.br'), brotliCompressSync(INDEX_HTML));
  await mkdir(path.join(webDir, 'assets'));
  const script = path.join(webDir, 'assets', 'index-B2x7Qk1a.js');
  await writeFile(script, SCRIPT);
  await writeFile(`${script}.br`, brotliCompressSync(SCRIPT));
  await writeFile(`${script}.gz`, gzipSync(SCRIPT));
  // Under 1 KB: the build writes no compressed copy.
  await writeFile(path.join(webDir, 'assets', 'small-Cx91.js'), 'export {};');
  test = await createTestApp({ WEB_DIST_DIR: webDir });
});
afterAll(async () => {
  await test.close();
  await rm(webDir, { recursive: true, force: true });
});

describe('GET api/health', () => {
  it('reports the database as up', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: { status: 'up' } });
  });

  it('answers 503 with the database down', async () => {
    const broken = await createTestApp();
    await broken.database.connection.pool.end();
    const response = await broken.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 'degraded',
      database: { status: 'down', latencyMs: null },
    });
    await broken.app.close();
  });
});

describe('routing', () => {
  it('matches API paths whatever their case, as the spec’s client mixes Auth/login and auth/refreshToken', async () => {
    for (const url of ['/api/health', '/API/Health', '/Api/HEALTH']) {
      expect((await test.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
  });

  it('answers an unknown API path with the error shape and a request id', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/no/such/thing?x=1' });
    expect(response.statusCode).toBe(404);
    const body = response.json<{ requestId: string }>();
    expect(body).toMatchObject({
      isSuccess: false,
      statusCode: 404,
      error: 'Not Found',
      message: 'No such API call: GET /api/no/such/thing',
    });
    expect(response.headers['x-request-id']).toBe(body.requestId);
  });

  it('serves the web app for any other GET, so client-side routes load', async () => {
    for (const url of ['/', '/login', '/some/unknown/page']) {
      const response = await test.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('sends the baseline security headers with every answer: API, page, file, error', async () => {
    for (const url of ['/api/health', '/', '/login', '/assets/index-B2x7Qk1a.js', '/api/nothing']) {
      const response = await test.app.inject({ method: 'GET', url });
      for (const [name, value] of Object.entries(BASELINE_HEADERS)) {
        // A page of the app has a policy of its own, which keeps the baseline's frame-ancestors.
        const expected =
          name === 'content-security-policy' && !url.includes('.') && !url.startsWith('/api')
            ? PAGE_POLICY
            : value;
        expect(response.headers[name], `${url} ${name}`).toBe(expected);
      }
    }
    expect(BASELINE_HEADERS).toEqual({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "frame-ancestors 'none'",
      'referrer-policy': 'strict-origin-when-cross-origin',
    });
    expect(PAGE_POLICY).toContain("script-src 'self';");
    expect(PAGE_POLICY).toContain("object-src 'none';");
    expect(PAGE_POLICY).toMatch(/frame-ancestors 'none'$/);
  });

  it("answers a file the build does not have with 404, not the app's page", async () => {
    // A browser's /favicon.ico, or a script of an older build named by a page still open.
    for (const url of ['/favicon.ico', '/assets/index-Old1234.js', '/robots.txt?x=1']) {
      const response = await test.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toContain('text/plain');
      expect(response.body).toBe('No such file.');
    }
  });

  it("sends the build's compressed copy the browser accepts, and lets it keep hashed files", async () => {
    const get = (url: string, acceptEncoding?: string) =>
      test.app.inject({
        method: 'GET',
        url,
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });
    const url = '/assets/index-B2x7Qk1a.js';

    const brotli = await get(url, 'gzip, deflate, br');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toContain('javascript');
    expect(brotliDecompressSync(brotli.rawPayload).equals(SCRIPT)).toBe(true);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toBe('accept-encoding');

    const gzip = await get(url, 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(SCRIPT)).toBe(true);

    for (const plain of [await get(url), await get(url, 'identity')]) {
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(SCRIPT)).toBe(true);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }

    // A file the build left uncompressed is sent as it is.
    const small = await get('/assets/small-Cx91.js', 'br');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('export {};');

    // The page that names the hashed files is checked on every visit, on every route.
    for (const route of ['/', '/inventoryList']) {
      const page = await get(route, 'br');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX_HTML);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers an unsupported content type with 415 in the error shape', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/Auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ isSuccess: false, statusCode: 415 });
  });

  it('answers a plain-text body, even one holding JSON, with 415: send it as JSON', async () => {
    for (const payload of ['hello', JSON.stringify({ UserName: 'jane@example.com' })]) {
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/Auth/login',
        headers: { 'content-type': 'text/plain' },
        payload,
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({
        message: 'Send the request body as JSON (Content-Type: application/json).',
      });
    }
  });

  it('answers a body over 1 MB with 413 in the error shape', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/Auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ UserName: 'x'.repeat(1_100_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      isSuccess: false,
      message: 'The request is too large.',
    });
  });

  it('gives up on a request still coming after 5 minutes, and a connection quiet for 150 s', () => {
    // Fastify turns off Node's limit on the whole request (a body sent a byte at a time would
    // hold its socket for ever), and any limit on a quiet connection.
    expect(test.app.server.requestTimeout).toBe(300_000);
    expect(test.app.server.timeout).toBe(150_000);
  });
});

describe('API documentation', () => {
  it('publishes OpenAPI with every account call and the docs UI', async () => {
    const spec = (await test.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/api/Auth/Register',
        '/api/Auth/login',
        '/api/auth/refreshToken',
        '/api/auth/ForgetPassword',
        '/api/auth/ResetPassword',
        '/api/auth/EmailVerifyUserAsync',
        '/api/auth/ConfirmEmail',
        '/api/user/getUserDetails',
        '/api/user/getusers',
        '/api/Captcha/VerifyRecaptcha',
        '/api/Captcha/challenge',
        '/api/health',
      ]),
    );
    const ui = await test.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe('the development outbox', () => {
  it('lists sent e-mail newest first as JSON and as a page with clickable links', async () => {
    const email = uniqueEmail();
    await register(test.app, email);
    const json = (
      await test.app.inject({
        method: 'GET',
        url: `/dev/outbox.json?to=${encodeURIComponent(email)}`,
      })
    ).json<{ to: string; subject: string; text: string; html: string; sentAt: string }[]>();
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ to: email, subject: 'Verify your RateLens e-mail address' });
    expect(Object.keys(json[0] ?? {}).sort()).toEqual([
      'channel',
      'html',
      'sentAt',
      'subject',
      'text',
      'to',
    ]);
    const page = await test.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toMatch(
      /<a href="http:\/\/localhost:3000\/confirmEmail\?email=[^"]+&amp;token=[^"]+">/,
    );
  });

  it('answers only a browser on this machine, not another machine or a proxy', async () => {
    const url = '/dev/outbox.json';
    expect((await test.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const ipv6 = await test.app.inject({ method: 'GET', url, remoteAddress: '::1' });
    expect(ipv6.statusCode).toBe(200);
    for (const remoteAddress of ['203.0.113.7', '10.0.0.2', '::ffff:192.0.2.1']) {
      const other = await test.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress });
      expect(other.statusCode, remoteAddress).toBe(404);
      expect(other.json()).toMatchObject({ statusCode: 404 });
    }
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const proxied = await test.app.inject({
        method: 'GET',
        url,
        headers: { [header]: '1.2.3.4' },
      });
      expect(proxied.statusCode, header).toBe(404);
    }
  });

  it('does not exist on a server people reach under another name, production or not', async () => {
    const deployed = await createTestApp({ PUBLIC_URL: 'https://ratelens.example' });
    try {
      expect(
        (await deployed.app.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode,
      ).toBe(404);
    } finally {
      await deployed.close();
    }
  });

  it('does not exist in production', async () => {
    const production = await createTestApp({
      NODE_ENV: 'production',
      JWT_SECRET: 'j'.repeat(40),
      ALTCHA_HMAC_KEY: 'k'.repeat(40),
      DATABASE_URL: 'postgresql://unused@127.0.0.1/unused',
      PAYMENT_GATEWAY: 'authorizenet',
      AUTHORIZENET_API_LOGIN_ID: 'unused',
      AUTHORIZENET_TRANSACTION_KEY: '0123456789abcdef',
    });
    try {
      expect(
        (await production.app.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode,
      ).toBe(404);
    } finally {
      await production.close();
    }
  });
});
