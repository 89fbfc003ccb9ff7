import { RefreshResponseSchema, SECRET_KEY_HEADER, SPEC_MESSAGES } from '@ratelens/core';
import {
  ApiRequestError,
  requestBlob,
  requestFile,
  requestJson,
  type DownloadedFile,
  type RequestOptions,
} from '../../shared/http.ts';
import {
  clearSession,
  isAccessTokenExpired,
  readSession,
  storeRefresh,
  type Session,
} from './session.ts';

/** Statuses that end the session on an authenticated call (search-and-accounts §4 "Session"). */
const SESSION_ENDING_STATUSES: readonly number[] = [400, 401, 403];

// ---- the end of a session: clear storage, then let the app navigate to /logout --------------

type SessionEndedHandler = () => void;
let sessionEndedHandler: SessionEndedHandler | null = null;
let sessionEndedWhileUnhandled = false;

/**
 * Registers what happens after a session ends (the app navigates to /logout). A session that
 * ended before anyone listened (the refresh at page load can finish first) is handed over now.
 */
export function onSessionEnded(handler: SessionEndedHandler): () => void {
  sessionEndedHandler = handler;
  if (sessionEndedWhileUnhandled) {
    sessionEndedWhileUnhandled = false;
    handler();
  }
  return () => {
    if (sessionEndedHandler === handler) sessionEndedHandler = null;
  };
}

function endSession(): void {
  clearSession();
  if (sessionEndedHandler) sessionEndedHandler();
  else sessionEndedWhileUnhandled = true;
}

// ---- refresh: single flight, and once per page load ------------------------------------------

let refreshing: Promise<void> | null = null;

/**
 * Runs `task` while holding a lock shared by every tab of the site, so two tabs never send the
 * same refresh token (the server treats a reused refresh token as theft and revokes the session).
 */
async function withRefreshLock(task: () => Promise<void>): Promise<void> {
  if (typeof navigator !== 'undefined' && 'locks' in navigator) {
    await navigator.locks.request('ratelens-token-refresh', task);
  } else {
    await task();
  }
}

async function runRefresh(): Promise<void> {
  const before = readSession();
  if (before.token === null || before.refreshToken === null) return;
  await withRefreshLock(async () => {
    const current = readSession();
    // Another tab rotated the tokens while this one waited for the lock: nothing to do.
    if (current.refreshToken !== before.refreshToken || current.token === null) return;
    try {
      const refreshed = await requestJson('/api/auth/refreshToken', {
        method: 'POST',
        body: {
          token: current.token,
          refreshToken: current.refreshToken,
          expiration: current.expired,
        },
        schema: RefreshResponseSchema,
      });
      storeRefresh(refreshed);
    } catch (error) {
      // Any answer other than 2xx ends the session. Without an answer (offline, server down)
      // the tokens may still be good, so they are kept and the next call decides.
      if (error instanceof ApiRequestError && error.status !== 0) endSession();
    }
  });
}

/** Refreshes the stored tokens; concurrent callers share one request. Never throws. */
export function refreshSession(): Promise<void> {
  refreshing ??= runRefresh().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

let pageLoadRefreshStarted = false;

/**
 * The refresh at page load (search-and-accounts §4 "The token is refreshed on page load").
 * Called from main.tsx, outside React, so StrictMode's double effects cannot send it twice.
 */
export function refreshOnPageLoad(): Promise<void> {
  if (pageLoadRefreshStarted) return refreshing ?? Promise.resolve();
  pageLoadRefreshStarted = true;
  return readSession().token === null ? Promise.resolve() : refreshSession();
}

// ---- authenticated calls ---------------------------------------------------------------------

export interface AuthedRequestOptions<T> extends RequestOptions<T> {
  /** Statuses this caller handles itself instead of ending the session (403 on /userList). */
  keepSessionOn?: readonly number[];
}

function authHeaders(session: Session): Record<string, string> {
  return {
    Authorization: `Bearer ${session.token ?? ''}`,
    [SECRET_KEY_HEADER]: session.secretKey ?? '',
  };
}

/**
 * Runs `call` with the auth headers of the current session. Waits for a refresh under way and
 * refreshes first when the stored expiry has passed. A 400, 401 or 403 clears the session and
 * hands over to the /logout redirect, unless the caller keeps that status for itself.
 */
async function withSession<T>(
  keepSessionOn: readonly number[],
  call: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (refreshing) await refreshing;
  let session = readSession();
  if (session.token !== null && isAccessTokenExpired(session)) {
    await refreshSession();
    session = readSession();
  }
  if (session.token === null) {
    endSession();
    throw new ApiRequestError(401, SPEC_MESSAGES.loginFirst);
  }

  try {
    return await call(authHeaders(session));
  } catch (error) {
    if (
      error instanceof ApiRequestError &&
      SESSION_ENDING_STATUSES.includes(error.status) &&
      !keepSessionOn.includes(error.status)
    ) {
      endSession();
    }
    throw error;
  }
}

/**
 * A call with the bearer token and the secret key header (see `withSession` for the refresh and
 * the end of the session). A FormData body is sent as multipart/form-data.
 */
export function authedRequest<T>(path: string, options: AuthedRequestOptions<T> = {}): Promise<T> {
  const { keepSessionOn = [], ...request } = options;
  return withSession(keepSessionOn, (headers) =>
    requestJson(path, { ...request, headers: { ...request.headers, ...headers } }),
  );
}

/**
 * An authenticated download (an admin-only attachment): a plain link cannot send the auth
 * headers, so the file is fetched here and handed back as a Blob.
 */
export function authedDownload(
  path: string,
  options: { keepSessionOn?: readonly number[]; signal?: AbortSignal } = {},
): Promise<Blob> {
  return withSession(options.keepSessionOn ?? [], (headers) =>
    requestBlob(path, { headers, signal: options.signal }),
  );
}

/** An authenticated download with the file name the server gave it (an export). */
export function authedFile(
  path: string,
  options: { keepSessionOn?: readonly number[]; signal?: AbortSignal } = {},
): Promise<DownloadedFile> {
  return withSession(options.keepSessionOn ?? [], (headers) =>
    requestFile(path, { headers, signal: options.signal }),
  );
}

/**
 * Tells the server a session is over (`POST /api/auth/logout`), with the credentials read before
 * the browser forgot them. Best effort: the person is signed out locally whatever happens.
 */
export async function sendLogout(session: Session): Promise<void> {
  if (session.token === null) return;
  try {
    // The refresh token lets the server end the session even when the access token has expired.
    await requestJson('/api/auth/logout', {
      method: 'POST',
      headers: authHeaders(session),
      body: { refreshToken: session.refreshToken ?? undefined },
    });
  } catch {
    // Ignored on purpose: an expired or revoked session is as good as logged out.
  }
}
