import { useSyncExternalStore } from 'react';
import { getSessionSnapshot, subscribeToSession, type Session } from './session.ts';

/** The stored session, re-rendering when it changes (here or in another tab). */
export function useSession(): Session {
  return useSyncExternalStore(subscribeToSession, getSessionSnapshot, getSessionSnapshot);
}
