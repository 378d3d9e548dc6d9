// Object URLs of a finished item's original and result, for the comparison and the viewer.
import { useEffect, useState } from 'react';
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { fetchResultBlob } from '../api/fetch-result-blob';
import { loadSourceBlob } from '../model/file-store';

export interface ItemImages {
  before: string | null;
  after: string | null;
  failed: boolean;
}

export function useItemImages(item: QueueItem | null): ItemImages {
  const [state, setState] = useState<ItemImages>({ before: null, after: null, failed: false });
  useEffect(() => {
    if (!item) return;
    const controller = new AbortController();
    const urls: string[] = [];
    setState({ before: null, after: null, failed: false });
    void (async () => {
      try {
        const [source, result] = await Promise.all([loadSourceBlob(item.fileId), fetchResultBlob(item, controller.signal)]);
        if (controller.signal.aborted) return;
        const before = source ? URL.createObjectURL(source) : null;
        const after = URL.createObjectURL(result);
        urls.push(...[before, after].filter((u): u is string => !!u));
        setState({ before, after, failed: false });
      } catch {
        if (!controller.signal.aborted) setState({ before: null, after: null, failed: true });
      }
    })();
    return () => {
      controller.abort();
      for (const u of urls) URL.revokeObjectURL(u);
    };
  }, [item]);
  return state;
}
