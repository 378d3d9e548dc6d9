// The signed-in user's draft of the video workflow: read from IndexedDB once, changed in memory,
// written back shortly after each change and when the page is hidden, so nothing is lost.
import { useCallback, useEffect, useRef, useState } from 'react';
import { currentUserKey } from '../../../lib/offline/user-key';
import { readVideoDraft, wipeOtherVideoDrafts, writeVideoDraft } from '../../../lib/db/video-draft-store';
import { useSession } from '../../../lib/session/use-session';
import { emptyDraft, type VideoDraft } from '../model/draft';
import { normalizeFabricForm } from '../model/fabric-form';

export type DraftUpdate = (change: (draft: VideoDraft) => VideoDraft) => void;

export function useVideoDraft(): { draft: VideoDraft | null; update: DraftUpdate; reset: () => void; read: () => VideoDraft | null } {
  const userKey = currentUserKey(useSession());
  const [draft, setDraft] = useState<VideoDraft | null>(null);
  const latest = useRef<VideoDraft | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    let alive = true;
    if (!userKey) return;
    void (async () => {
      let stored: VideoDraft | undefined;
      try {
        await wipeOtherVideoDrafts(userKey);
        stored = await readVideoDraft<VideoDraft>(userKey);
      } catch {
        stored = undefined;
      }
      if (!alive) return;
      const base = emptyDraft(userKey);
      const value = stored ? { ...base, ...stored, form: normalizeFabricForm(stored.form) } : base;
      latest.current = value;
      setDraft(value);
    })();
    return () => {
      alive = false;
    };
  }, [userKey]);

  const flush = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const value = latest.current;
    if (value) void writeVideoDraft({ ...value, savedAt: Date.now() }).catch(() => undefined);
  }, []);

  const update = useCallback<DraftUpdate>(
    (change) => {
      const current = latest.current;
      if (!current) return;
      const next = change(current);
      if (next === current) return;
      latest.current = next;
      setDraft(next);
      window.clearTimeout(timer.current);
      // A new step or a new run is written at once: a reload right after it must find it.
      if (next.step !== current.step || next.requestId !== current.requestId || next.videos.length !== current.videos.length) flush();
      else timer.current = window.setTimeout(flush, 250);
    },
    [flush],
  );

  const reset = useCallback(() => {
    if (!userKey) return;
    update(() => emptyDraft(userKey));
    flush();
  }, [flush, update, userKey]);

  useEffect(() => {
    const onHide = () => flush();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
      if (timer.current !== undefined) flush();
    };
  }, [flush]);

  const read = useCallback(() => latest.current, []);
  return { draft, update, reset, read };
}
