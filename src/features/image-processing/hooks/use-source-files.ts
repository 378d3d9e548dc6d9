// The user's source images: loaded from IndexedDB for the signed-in user, added by drop, picker,
// paste or camera, thumbnailed and noise-estimated in a worker one by one after they are stored.
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { makeThumbnail } from '../../../lib/workers/thumbnail-bridge';
import { addFiles, type Rejected } from '../model/add-files';
import { idbFileStore, type SourceFile } from '../model/file-store';

export interface SourceFiles {
  files: SourceFile[];
  loaded: boolean;
  rejected: Rejected[];
  add(files: readonly File[]): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
  dismissRejected(): void;
  markQueued(ids: readonly string[]): Promise<void>;
  /** Drops queued files no queue item uses any more. */
  removeOrphans(referenced: ReadonlySet<string>): Promise<void>;
}

export function useSourceFiles(owner: string | null): SourceFiles {
  const [files, setFiles] = useState<SourceFile[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [rejected, setRejected] = useState<Rejected[]>([]);
  const ownerRef = useRef(owner);
  ownerRef.current = owner;

  const thumbnail = useCallback(async (list: SourceFile[]) => {
    for (const file of list) {
      // Pending files kept from before the noise estimate existed get one (and a fresh thumbnail).
      if (file.thumb && (file.noise || file.queued)) continue;
      try {
        const { thumb, width, height, noise } = await makeThumbnail(file.blob);
        await idbFileStore.patch(file.id, { thumb, width, height, noise });
        // One thumbnail at a time arrives for a large drop: each re-render may wait for a slice.
        startTransition(() => setFiles((prev) => prev.map((f) => (f.id === file.id ? { ...f, thumb, width, height, noise } : f))));
      } catch {
        // Undecodable despite the right magic bytes: the card shows the name instead.
      }
    }
  }, []);

  useEffect(() => {
    if (!owner) return;
    let live = true;
    void idbFileStore
      .list(owner)
      .then((list) => {
        if (!live) return;
        setFiles(list);
        setLoaded(true);
        void thumbnail(list);
      })
      .catch(() => setLoaded(true));
    return () => {
      live = false;
    };
  }, [owner, thumbnail]);

  const add = useCallback(
    async (incoming: readonly File[]) => {
      const who = ownerRef.current;
      if (!who || incoming.length === 0) return;
      const { added, rejected: refused } = await addFiles(incoming, who, idbFileStore);
      setFiles((prev) => [...prev, ...added]);
      setRejected(refused);
      void thumbnail(added);
    },
    [thumbnail],
  );

  const remove = useCallback(async (ids: readonly string[]) => {
    await idbFileStore.remove(ids);
    setFiles((prev) => prev.filter((f) => !ids.includes(f.id)));
  }, []);

  const markQueued = useCallback(async (ids: readonly string[]) => {
    await idbFileStore.patchMany(ids, { queued: true });
    // A started batch leaves the pending list: 30 rows removed, rendered in interruptible slices.
    startTransition(() => setFiles((prev) => prev.map((f) => (ids.includes(f.id) ? { ...f, queued: true } : f))));
  }, []);

  const removeOrphans = useCallback(
    async (referenced: ReadonlySet<string>) => {
      const orphans = files.filter((f) => f.queued && !referenced.has(f.id)).map((f) => f.id);
      if (orphans.length > 0) await remove(orphans);
    },
    [files, remove],
  );

  const dismissRejected = useCallback(() => setRejected([]), []);

  return {
    files,
    loaded,
    rejected,
    add,
    remove,
    dismissRejected,
    markQueued,
    removeOrphans,
  };
}
