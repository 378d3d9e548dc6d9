import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type SessionSnapshot } from './session-store';

/** The current session; re-renders on sign-in, sign-out, refresh and changes from other tabs. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
