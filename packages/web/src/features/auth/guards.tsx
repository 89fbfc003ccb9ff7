import { isAdmin, SPEC_MESSAGES } from '@ratelens/core';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { FormAlert } from '../../shared/form-alert.tsx';
import { clearSession, readSession } from './session.ts';
import { useSession } from './use-session.ts';

/** What a signed-in person who is not an administrator sees on an administrators' screen. */
export const NO_ACCESS_MESSAGE = 'You do not have access to this page.';

/**
 * What /login says on arrival from another screen: a success (an account made) or information
 * (why signing in is needed).
 */
export interface LoginArrival {
  notice: string;
  tone?: 'success' | 'info';
}

/**
 * Screens for signed-in people only: without a token, go to /login (both specs, §2), which says
 * 'You need to login first' (search-and-accounts §4, §8 "Not signed in").
 */
export function RequireToken({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.token === null) {
    const arrival: LoginArrival = { notice: SPEC_MESSAGES.loginFirst, tone: 'info' };
    return <Navigate to="/login" replace state={arrival} />;
  }
  return children;
}

/**
 * Administrators' screens, inside RequireToken: the session's role already says whether the person
 * is one, so anyone else is told so without asking the server for data it would refuse (a 403 in
 * the browser's console for every call). The server still checks each call: a role taken away
 * since sign-in is refused there, and the screen says so too; one given since signs in again, as
 * the header's admin menu needs too (the role is stored at sign-in).
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!isAdmin(session.role)) return <FormAlert tone="error">{NO_ACCESS_MESSAGE}</FormAlert>;
  return children;
}

/**
 * The entry rule of the sign-in and sign-up screens: a stored token sends the person to
 * /profile; otherwise any leftover session data is cleared. The token is read once, at entry,
 * so signing in on the screen itself does not trigger the /profile redirect.
 */
export function useSignedOutEntry(): { hadToken: boolean } {
  const [hadToken] = useState(() => readSession().token !== null);
  useEffect(() => {
    if (!hadToken) clearSession();
  }, [hadToken]);
  return { hadToken };
}
