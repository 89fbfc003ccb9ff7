import type { LoginResponse } from '@ratelens/core';
import { storeLogin } from '../features/auth/session.ts';

/** Stores a signed-in session with `role`, valid for long enough that no refresh is sent. */
export function signInAs(role: string): void {
  const login: LoginResponse = {
    isSuccess: true,
    message: '',
    token: 'access-1',
    emailID: 'ann@example.com',
    userID: 'user-1',
    userName: 'ann@example.com',
    secval: 'secret-1',
    refreshToken: 'refresh-1',
    expireDate: '2099-01-01T00:00:00Z',
    role,
  };
  storeLogin(login);
}
