// /login is for visitors (spec §2): someone already signed in goes to /. Checked once on entry —
// signing in on this page plays its success animation before it navigates itself.
import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { getSession } from '../../lib/session/session-store';

export function VisitorOnly({ children }: { children: ReactNode }) {
  const [signedInOnEntry] = useState(() => getSession().isLoggedIn);
  if (signedInOnEntry) return <Navigate to="/" replace />;
  return children;
}
