// The end of a session the user did not choose: clear it once and let the shell tell them.
import { clearSession, getSession } from '../session/session-store';
import { notifySessionExpired } from '../session/session-events';

export function expireSession(): void {
  // Parallel requests may all fail; only the first one clears and notifies.
  if (!getSession().isLoggedIn) return;
  clearSession();
  notifySessionExpired();
}
