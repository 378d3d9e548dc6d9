// When the API client gives up on a session (401 and the silent refresh failed), tell the user
// and return to /login (spec §8).
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { onSessionExpired } from '../lib/session/session-events';
import { runLogoutCleanups } from '../lib/session/logout-cleanup';

export function SessionExpiryNotice() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(
    () =>
      onSessionExpired(() => {
        void runLogoutCleanups();
        toast.error(t('errors.unauthorized'), { id: 'session-expired' });
        navigate('/login', { replace: true });
      }),
    [navigate, t],
  );
  return null;
}
