// Collections started on this device but not yet on the server go on as soon as the app opens,
// whatever page it opens on (a closed tab, a reload elsewhere): the shell calls this. It reads the
// small draft store first and loads the uploader only when there is something to send. A collection
// that reaches the server while the person is on another page is announced with a link to it.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { readPendingCollections } from '../../../lib/db/collection-draft-store';
import { currentUserKey } from '../../../lib/offline/user-key';
import { useSession } from '../../../lib/session/use-session';

export function useResumePendingCollections(): void {
  const { t } = useTranslation();
  const userKey = currentUserKey(useSession());
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const where = useRef(pathname);
  where.current = pathname;

  useEffect(() => {
    if (!userKey) return;
    let alive = true;
    let unsubscribe: (() => void) | undefined;
    void (async () => {
      const pending = await readPendingCollections(userKey).catch(() => []);
      if (!alive || !pending.some((p) => !p.refused)) return;
      const runner = await import('./pending-runner');
      if (!alive) return;
      unsubscribe = runner.onCollectionCreated(({ name, ref }) => {
        // The collections page opens the collection itself.
        if (where.current === '/collections') return;
        toast.success(t('collections.import.createdToast', { name }), {
          action: { label: t('collections.import.createdOpen'), onClick: () => navigate(`/collections/${ref.id}`) },
        });
      });
      runner.resumePending(userKey);
    })();
    return () => {
      alive = false;
      unsubscribe?.();
    };
  }, [navigate, t, userKey]);
}
