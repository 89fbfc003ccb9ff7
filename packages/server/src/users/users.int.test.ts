import { describe, expect, it } from 'vitest';
import { authHeaders, signedInAdmin, signedInUser, useTestApp } from '../test/app.ts';

const test = useTestApp();

const details = (email: string, headers: Record<string, string>) =>
  test.app.inject({
    method: 'GET',
    url: `/api/user/getUserDetails?UserInput=${encodeURIComponent(email)}`,
    headers,
  });

describe('GET api/user/getUserDetails', () => {
  it('answers the signed-in user’s own details', async () => {
    const session = await signedInUser(test.app);
    const response = await details(session.emailID, authHeaders(session));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      userID: session.userID,
      emailID: session.emailID,
      userName: session.emailID,
      role: 'HCL Web User',
      emailConfirmed: false,
    });
  });

  it('refuses another user’s details with 403', async () => {
    const one = await signedInUser(test.app);
    const two = await signedInUser(test.app);
    const response = await details(two.emailID, authHeaders(one));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      isSuccess: false,
      message: 'You can only see your own account.',
    });
  });

  it('lets an admin look up anyone, and says when nobody has the address', async () => {
    const admin = await signedInAdmin(test);
    const user = await signedInUser(test.app);
    expect((await details(user.emailID, authHeaders(admin))).json()).toMatchObject({
      emailID: user.emailID,
    });
    expect((await details('nobody@example.com', authHeaders(admin))).statusCode).toBe(404);
  });

  it('answers a malformed UserInput with 400 naming it', async () => {
    const session = await signedInUser(test.app);
    const response = await details('not-an-email', authHeaders(session));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [{ field: 'UserInput', message: 'Email is not valid.' }],
    });
  });
});

describe('GET api/user/getusers', () => {
  it('is refused to a signed-in user who is not an admin', async () => {
    const session = await signedInUser(test.app);
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/user/getusers',
      headers: authHeaders(session),
    });
    expect(response.statusCode).toBe(403);
  });

  it('is refused without a session', async () => {
    expect((await test.app.inject({ method: 'GET', url: '/api/user/getusers' })).statusCode).toBe(
      401,
    );
  });

  it('lists every account with the spec’s columns for an admin', async () => {
    const user = await signedInUser(test.app);
    const admin = await signedInAdmin(test);
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/user/getusers',
      headers: authHeaders(admin),
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json<{ emailID: string; lastLogin: string | null }[]>();
    const row = rows.find((r) => r.emailID === user.emailID);
    expect(row).toEqual({
      firstName: '',
      lastName: '',
      emailID: user.emailID,
      address: '',
      zip: '',
      lastLogin: expect.any(String) as string,
    });
    expect(rows.some((r) => 'passwordHash' in r || 'password_hash' in r)).toBe(false);
  });
});
