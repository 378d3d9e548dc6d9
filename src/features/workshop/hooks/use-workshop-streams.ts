// Follows the running workshop items through their event streams: the text as it is written
// (shown under the item), the move from pending to processing, and the item as it ended, put into
// the cached list. A stream the server closes early is opened again (it replays the item, so the
// text carries on); one that cannot be opened leaves its item to the list's polling.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { queryKeys } from '../../../lib/query/query-keys';
import { putWorkshopItem, setCachedWorkshopStatus } from '../api/workshop-queries';
import { streamWorkshopItem, type WorkshopStreamEvent } from '../api/workshop-stream';
import { applyWorkshopEvent, NO_LIVE_TEXT, type LiveText } from '../model/live-text';
import { isRunning, type WorkshopItem } from '../model/workshop-item';

/** Streams open at once: the browser keeps few connections per host, and the page needs some for itself. */
export const MAX_WORKSHOP_STREAMS = 3;
/** Early ends in a row, without an event between them, before the item is left to polling. */
const MAX_SILENT_RECONNECTS = 3;
const RECONNECT_DELAY_MS = 1000;

export interface WorkshopStreams {
  /** The text written so far of each followed item. */
  live: Readonly<Record<number, LiveText>>;
  /** Items whose stream is open: the list need not be polled for them. */
  streamed: ReadonlySet<number>;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export function useWorkshopStreams(items: readonly WorkshopItem[]): WorkshopStreams {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<Record<number, LiveText>>({});
  const [streamed, setStreamed] = useState<ReadonlySet<number>>(() => new Set());
  const open = useRef(new Map<number, AbortController>());
  /** Items whose stream could not be opened: polled from then on. */
  const polled = useRef(new Set<number>());

  const handle = useCallback(
    (id: number, event: WorkshopStreamEvent) => {
      if (event.type === 'complete' || event.type === 'error') {
        if (event.data) putWorkshopItem(queryClient, event.data);
        else void queryClient.invalidateQueries({ queryKey: queryKeys.workshop.items() });
        setLive(({ [id]: _done, ...rest }) => rest);
        return;
      }
      if (event.type === 'progress' && event.status) setCachedWorkshopStatus(queryClient, id, event.status);
      setLive((all) => ({ ...all, [id]: applyWorkshopEvent(all[id] ?? NO_LIVE_TEXT, event, Date.now()) }));
    },
    [queryClient],
  );

  const follow = useCallback(
    async (id: number, controller: AbortController) => {
      const { signal } = controller;
      setStreamed((ids) => new Set(ids).add(id));
      // A run starts from nothing (a retried item's earlier text is not this run's).
      setLive(({ [id]: _earlier, ...rest }) => rest);
      let silent = 0;
      try {
        for (;;) {
          let heard = false;
          const outcome = await streamWorkshopItem(
            id,
            (event) => {
              heard = true;
              handle(id, event);
            },
            signal,
          );
          if (outcome !== 'ended') return;
          // Closed before the end (a restart, a proxy): opened again, the server replays the item.
          silent = heard ? 0 : silent + 1;
          if (silent >= MAX_SILENT_RECONNECTS) throw new Error('the stream keeps ending early');
          await pause(RECONNECT_DELAY_MS, signal);
          if (signal.aborted) return;
        }
      } catch {
        if (signal.aborted) return;
        // No stream: the list is polled for this item, as before streams existed.
        polled.current.add(id);
        void queryClient.invalidateQueries({ queryKey: queryKeys.workshop.items() });
      } finally {
        if (open.current.get(id) === controller) {
          open.current.delete(id);
          setStreamed((ids) => {
            const next = new Set(ids);
            next.delete(id);
            return next;
          });
        }
      }
    },
    [handle, queryClient],
  );

  const wanted = items
    .filter((i) => isRunning(i.status) && !polled.current.has(i.id))
    .slice(0, MAX_WORKSHOP_STREAMS)
    .map((i) => i.id)
    .join(',');

  useEffect(() => {
    const ids = new Set(wanted ? wanted.split(',').map(Number) : []);
    for (const [id, controller] of open.current) {
      if (ids.has(id)) continue;
      controller.abort();
      open.current.delete(id);
      setStreamed((all) => {
        const next = new Set(all);
        next.delete(id);
        return next;
      });
    }
    for (const id of ids) {
      if (open.current.has(id)) continue;
      const controller = new AbortController();
      open.current.set(id, controller);
      void follow(id, controller);
    }
  }, [wanted, follow]);

  useEffect(() => {
    const streams = open.current;
    return () => {
      for (const controller of streams.values()) controller.abort();
      streams.clear();
    };
  }, []);

  return { live, streamed };
}
