import type { LoginResponse } from '@ratelens/core';
import { storeLogin } from '../features/auth/session.ts';

/**
 * Stores a signed-in session with `role`; by default valid for long enough that no refresh is
 * sent (pass a past `expireDate` to test the refresh).
 */
export function signInAs(role: string, expireDate = '2099-01-01T00:00:00Z'): void {
  const login: LoginResponse = {
    isSuccess: true,
    message: '',
    token: 'access-1',
    emailID: 'ann@example.com',
    userID: 'user-1',
    userName: 'ann@example.com',
    secval: 'secret-1',
    refreshToken: 'refresh-1',
    expireDate,
    role,
  };
  storeLogin(login);
}
