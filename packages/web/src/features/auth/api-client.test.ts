// @vitest-environment jsdom
import { SECRET_KEY_HEADER } from '@ratelens/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../shared/http.ts';
import { forbiddenResponse, jsonResponse } from '../../test/render.tsx';
import { signInAs } from '../../test/sign-in.ts';
import { authedRequest, onSessionEnded, refreshSession } from './api-client.ts';
import { readSession } from './session.ts';

const FUTURE = '2099-01-01T00:00:00.000Z';
const PAST = '2001-01-01T00:00:00.000Z';

const signIn = (expireDate = FUTURE) => signInAs('HCL Web User', expireDate);

function headersOf(call: unknown[] | undefined): Record<string, string> {
  const init = call?.[1] as RequestInit | undefined;
  return (init?.headers ?? {}) as Record<string, string>;
}

let sessionEnded: ReturnType<typeof vi.fn<() => void>>;
let stopListening: () => void;

beforeEach(() => {
  sessionEnded = vi.fn<() => void>();
  stopListening = onSessionEnded(sessionEnded);
});

afterEach(() => {
  stopListening();
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('authedRequest', () => {
  it('sends the bearer token and the secret key header', async () => {
    signIn();
    const fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, [])));
    vi.stubGlobal('fetch', fetchMock);

    await authedRequest('/api/user/getusers');

    expect(headersOf(fetchMock.mock.calls[0])).toMatchObject({
      Authorization: 'Bearer access-1',
      [SECRET_KEY_HEADER]: 'secret-1',
    });
  });

  it.each([400, 401, 403])('clears the session and hands over to /logout on %i', async (status) => {
    signIn();
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        jsonResponse(status, { isSuccess: false, statusCode: status, error: 'x', message: 'No.' }),
      ),
    );

    await expect(authedRequest('/api/user/getUserDetails')).rejects.toBeInstanceOf(ApiRequestError);

    expect(readSession().token).toBeNull();
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });

  it('keeps the session for a status the caller handles itself', async () => {
    signIn();
    vi.stubGlobal('fetch', () => Promise.resolve(forbiddenResponse('No.')));

    await expect(
      authedRequest('/api/user/getusers', { keepSessionOn: [403] }),
    ).rejects.toMatchObject({
      status: 403,
    });

    expect(readSession().token).toBe('access-1');
    expect(sessionEnded).not.toHaveBeenCalled();
  });

  it('keeps the session when the server cannot be reached', async () => {
    signIn();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));

    await expect(authedRequest('/api/user/getusers')).rejects.toMatchObject({ status: 0 });

    expect(readSession().token).toBe('access-1');
  });

  it('refreshes an expired token once for concurrent calls, then uses the new one', async () => {
    signIn(PAST);
    const fetchMock = vi.fn((path: string) =>
      Promise.resolve(
        path === '/api/auth/refreshToken'
          ? jsonResponse(200, { token: 'access-2', refreshToken: 'refresh-2', expiration: FUTURE })
          : jsonResponse(200, { ok: true }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);

    await Promise.all([authedRequest('/api/a'), authedRequest('/api/b')]);

    const paths = fetchMock.mock.calls.map(([path]) => path);
    expect(paths.filter((path) => path === '/api/auth/refreshToken')).toHaveLength(1);
    const refreshBody = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body;
    expect(JSON.parse(refreshBody as string)).toEqual({
      token: 'access-1',
      refreshToken: 'refresh-1',
      expiration: PAST,
    });
    for (const call of fetchMock.mock.calls.slice(1)) {
      expect(headersOf(call).Authorization).toBe('Bearer access-2');
    }
    expect(readSession().refreshToken).toBe('refresh-2');
  });
});

describe('refreshSession', () => {
  it('clears the session and hands over to /logout when the server refuses', async () => {
    signIn();
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        jsonResponse(401, { isSuccess: false, statusCode: 401, error: 'x', message: 'Revoked.' }),
      ),
    );

    await refreshSession();

    expect(readSession().token).toBeNull();
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });
});
