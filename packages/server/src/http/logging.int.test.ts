import { describe, expect, it } from 'vitest';
import { authHeaders, login, PASSWORD, signedInUser, useTestApp } from '../test/app.ts';

const lines: string[] = [];
const test = useTestApp({ LOG_LEVEL: 'info' }, undefined, {
  write: (line) => lines.push(line),
});

describe('request logs', () => {
  it('are JSON lines with the request id, method and path', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/health' });
    const entries = lines.map(
      (line) => JSON.parse(line) as { reqId?: string; req?: { method: string; path: string } },
    );
    const entry = entries.find((e) => e.reqId === response.headers['x-request-id'] && e.req);
    expect(entry?.req).toEqual({ method: 'GET', path: '/api/health' });
  });

  it('hold no password, token, secret key, query string or body', async () => {
    const session = await signedInUser(test.app);
    await login(test.app, session.emailID, 'Wrong-Password-1!');
    await test.app.inject({
      method: 'GET',
      url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(session.emailID)}`,
      headers: authHeaders(session),
    });
    await test.app.inject({
      method: 'POST',
      url: '/api/auth/refreshToken',
      payload: { token: session.token, refreshToken: session.refreshToken },
    });
    const log = lines.join('\n');
    expect(log).toContain('/api/user/getUserDetails');
    for (const secret of [
      PASSWORD,
      'Wrong-Password-1!',
      session.token,
      session.secval,
      session.refreshToken,
      encodeURIComponent(session.emailID),
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it("hold no texted report's token, the only key to its link", async () => {
    const token = 'x'.repeat(43);
    for (const path of [
      `/api/reports/${token}`,
      `/api/Reports/${token}?download=1`,
      `//api//reports/${token}`,
    ])
      await test.app.inject({ method: 'GET', url: path });
    const log = lines.join('\n');
    expect(log).toContain('"path":"/api/reports/:token"');
    expect(log).toContain('"path":"/api/Reports/:token"');
    expect(log).not.toContain(token);
  });
});
