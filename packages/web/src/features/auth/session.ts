import { SESSION_KEYS, type LoginResponse, type RefreshResponse } from '@ratelens/core';

/**
 * The signed-in session as the browser keeps it: one value per key of SESSION_KEYS in
 * localStorage (search-and-accounts §3 "Login response"). A session exists when a token does.
 */
export interface Session {
  token: string | null;
  refreshToken: string | null;
  /** When the access token expires (ISO 8601, as the server sends it). */
  expired: string | null;
  email: string | null;
  userID: string | null;
  userName: string | null;
  secretKey: string | null;
  role: string | null;
}

type SessionField = keyof typeof SESSION_KEYS;
const FIELDS = Object.keys(SESSION_KEYS) as SessionField[];

/** Refresh this long before the stored expiry, so a call never leaves with a token about to lapse. */
const EXPIRY_MARGIN_MS = 30_000;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled (privacy settings): behave as signed out rather than crash.
    return null;
  }
}

export function readSession(): Session {
  const store = storage();
  const session = {} as Session;
  for (const field of FIELDS) session[field] = store?.getItem(SESSION_KEYS[field]) ?? null;
  return session;
}

// ---- change notification (useSyncExternalStore needs a stable snapshot) ----------------------

const listeners = new Set<() => void>();
let snapshot: Session | null = null;

function changed(): void {
  snapshot = readSession();
  for (const listener of listeners) listener();
}

export function getSessionSnapshot(): Session {
  snapshot ??= readSession();
  return snapshot;
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes the same localStorage.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || FIELDS.some((field) => SESSION_KEYS[field] === event.key)) changed();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

// ---- writes ----------------------------------------------------------------------------------

function write(values: Partial<Record<SessionField, string>>): void {
  const store = storage();
  for (const [field, value] of Object.entries(values) as [SessionField, string][]) {
    store?.setItem(SESSION_KEYS[field], value);
  }
  changed();
}

/** Stores a successful sign-in (`POST /api/Auth/login`). */
export function storeLogin(login: LoginResponse): void {
  clearSession();
  write({
    token: login.token,
    refreshToken: login.refreshToken,
    expired: login.expireDate,
    email: login.emailID,
    userID: login.userID,
    userName: login.userName,
    secretKey: login.secval,
    role: login.role,
  });
}

/** Stores the three values a refresh rotates (`POST /api/auth/refreshToken`). */
export function storeRefresh(refresh: RefreshResponse): void {
  write({
    token: refresh.token,
    refreshToken: refresh.refreshToken,
    expired: refresh.expiration,
  });
}

/** Removes every stored session value (sign-in and sign-up screens, logout, a failed refresh). */
export function clearSession(): void {
  const store = storage();
  for (const field of FIELDS) store?.removeItem(SESSION_KEYS[field]);
  changed();
}

/**
 * Whether the stored access token has expired (or is about to). An expiry that does not parse
 * counts as valid: the server is the judge, and a 401 ends the session anyway.
 */
export function isAccessTokenExpired(session: Session, now = Date.now()): boolean {
  if (session.expired === null) return false;
  const expiresAt = Date.parse(session.expired);
  return Number.isFinite(expiresAt) && expiresAt - EXPIRY_MARGIN_MS <= now;
}
