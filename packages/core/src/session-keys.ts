/**
 * Browser storage keys of a signed-in session (search-and-accounts §3 "Login response",
 * subscriptions-and-payments §3 "Browser-stored session keys").
 */
export const SESSION_KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  expired: 'expired',
  email: 'email',
  userID: 'userID',
  userName: 'userName',
  secretKey: 'secret_key',
  role: 'role',
} as const;

/** The header an authenticated call carries besides the bearer token. */
export const SECRET_KEY_HEADER = 'secret_key';
