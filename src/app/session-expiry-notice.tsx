// When the API client gives up on a session (401 and the silent refresh failed), tell the user
// and return to /login (spec §8). This is not a logout: the device keeps the user's queued edits
// and unfinished batch for when they sign in again; another account signing in wipes them first.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { onSessionExpired } from '../lib/session/session-events';

export function SessionExpiryNotice() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(
    () =>
      onSessionExpired(() => {
        toast.error(t('errors.unauthorized'), { id: 'session-expired' });
        navigate('/login', { replace: true });
      }),
    [navigate, t],
  );
  return null;
}
