// The shell needs a session (spec §2): without one, go to /login. Reactive, so a logout or an
// expired session in any tab leaves the protected pages at once.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../../lib/session/use-session';
import { isPathHiddenFor } from '../navigation/menu-entries';

export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session.isLoggedIn) return <Navigate to="/login" replace />;
  // Roles are enforced by the server; here we only spare people a page they cannot use.
  if (session.user && isPathHiddenFor(location.pathname, session.user.user_level)) return <Navigate to="/" replace />;
  return children;
}
