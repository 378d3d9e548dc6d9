// The key every stored record of a user is filed under: the account id. Sign-in replies carry the
// profile, so it is known from the first moment; without it nothing is stored.
import type { SessionSnapshot } from '../session/session-store';

export function currentUserKey(session: SessionSnapshot): string | null {
  if (!session.isLoggedIn || !session.user) return null;
  return `id:${session.user.id}`;
}
