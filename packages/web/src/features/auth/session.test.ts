// @vitest-environment jsdom
import { SESSION_KEYS, type LoginResponse } from '@ratelens/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearSession,
  getSessionSnapshot,
  isAccessTokenExpired,
  readSession,
  storeLogin,
  storeRefresh,
  subscribeToSession,
} from './session.ts';

const LOGIN: LoginResponse = {
  isSuccess: true,
  message: 'Signed in.',
  token: 'access-1',
  emailID: 'ann@example.com',
  userID: 'user-1',
  userName: 'ann@example.com',
  secval: 'secret-1',
  refreshToken: 'refresh-1',
  expireDate: '2030-01-01T00:00:00.000Z',
  role: 'HCL Web User',
};

afterEach(() => localStorage.clear());

describe('session storage', () => {
  it('stores a sign-in under the keys shared with the server contract', () => {
    storeLogin(LOGIN);

    expect(localStorage.getItem(SESSION_KEYS.token)).toBe('access-1');
    expect(localStorage.getItem(SESSION_KEYS.refreshToken)).toBe('refresh-1');
    expect(localStorage.getItem(SESSION_KEYS.expired)).toBe('2030-01-01T00:00:00.000Z');
    expect(localStorage.getItem(SESSION_KEYS.email)).toBe('ann@example.com');
    expect(localStorage.getItem(SESSION_KEYS.userID)).toBe('user-1');
    expect(localStorage.getItem(SESSION_KEYS.userName)).toBe('ann@example.com');
    expect(localStorage.getItem(SESSION_KEYS.secretKey)).toBe('secret-1');
    expect(localStorage.getItem(SESSION_KEYS.role)).toBe('HCL Web User');
  });

  it('replaces only the token, refresh token and expiry on a refresh', () => {
    storeLogin(LOGIN);
    storeRefresh({
      token: 'access-2',
      refreshToken: 'refresh-2',
      expiration: '2031-01-01T00:00:00Z',
    });

    expect(readSession()).toMatchObject({
      token: 'access-2',
      refreshToken: 'refresh-2',
      expired: '2031-01-01T00:00:00Z',
      secretKey: 'secret-1',
      email: 'ann@example.com',
    });
  });

  it('clears every session key and leaves other data alone', () => {
    storeLogin(LOGIN);
    localStorage.setItem('unrelated', 'kept');

    clearSession();

    for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
  });

  it('tells subscribers and updates the snapshot when the session changes', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToSession(listener);

    storeLogin(LOGIN);
    const signedIn = getSessionSnapshot();
    clearSession();

    expect(listener).toHaveBeenCalled();
    expect(signedIn.token).toBe('access-1');
    expect(getSessionSnapshot().token).toBeNull();
    unsubscribe();
  });
});

describe('isAccessTokenExpired', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const session = (expired: string | null) => ({ ...readSession(), expired });

  it('is true once the stored expiry has passed', () => {
    expect(isAccessTokenExpired(session('2026-06-01T11:59:00Z'), now)).toBe(true);
  });

  it('is true shortly before the expiry, so a call never leaves with a dying token', () => {
    expect(isAccessTokenExpired(session('2026-06-01T12:00:10Z'), now)).toBe(true);
  });

  it('is false while the token has minutes left', () => {
    expect(isAccessTokenExpired(session('2026-06-01T12:15:00Z'), now)).toBe(false);
  });

  it('leaves an expiry that does not parse to the server to judge', () => {
    expect(isAccessTokenExpired(session('not a date'), now)).toBe(false);
  });
});
