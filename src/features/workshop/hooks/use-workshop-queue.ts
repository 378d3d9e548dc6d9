// The workshop queue: items added on the device wait (kept in IndexedDB with their files) and are
// sent when a slot is free; sent items are the server's and are followed through the polled list.
// Sending goes through the shared retry policy; after its budget the item shows the failure and a
// retry. Cancel and retry of a sent item are server calls; their answers update the cached list.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, isCancelled } from '../../../lib/api';
import { newIdempotencyKey } from '../../../lib/api/idempotency-key';
import { withQuotaRecovery } from '../../../lib/db/quota';
import {
  deleteWorkshopQueueRecord,
  putWorkshopQueueRecord,
  readWorkshopQueue,
  wipeOtherWorkshopQueues,
} from '../../../lib/db/workshop-queue-store';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { registerLogoutCleanup } from '../../../lib/session/logout-cleanup';
import { RetryGaveUp, withRetry } from '../../../lib/retry/with-retry';
import { cancelWorkshopItem, createWorkshopItem, retryWorkshopItem } from '../api/workshop-api';
import { putWorkshopItem } from '../api/workshop-queries';
import { queryKeys } from '../../../lib/query/query-keys';
import { randomUuid } from '../../../lib/random-uuid';
import type { WorkshopItem } from '../model/workshop-item';
import { afterReload, entriesToStart, type QueueEntry } from '../model/workshop-queue';

export interface WorkshopQueue {
  entries: QueueEntry[];
  loaded: boolean;
  /** Rejects, with the storage's error, when the item could not be kept on the device. */
  add(entry: Omit<QueueEntry, 'id' | 'userKey' | 'state' | 'createdAt' | 'language'>): Promise<void>;
  removeEntry(id: string): Promise<void>;
  resendEntry(id: string): Promise<void>;
  cancelItem(id: number): Promise<WorkshopItem>;
  retryItem(id: number): Promise<WorkshopItem>;
}

/**
 * Sends in flight, by entry id. Module-wide: a send goes on while the person visits another page,
 * and stops at logout before the wipe, so nothing of theirs is written back afterwards.
 */
const inflight = new Map<string, AbortController>();
/** Whose sends are in flight: another account's stop when the page opens for a different user. */
let inflightOwner: string | null = null;

function stopAll(): void {
  for (const controller of inflight.values()) controller.abort();
  inflight.clear();
}
registerLogoutCleanup(stopAll);

/** Every open queue view hears every change, so a send that outlives its page still updates the next one. */
type Change = { kind: 'put'; entry: QueueEntry } | { kind: 'drop'; id: string };
const listeners = new Set<(change: Change) => void>();
const announce = (change: Change): void => listeners.forEach((listener) => listener(change));

function applyChange(list: QueueEntry[], change: Change, userKey: string | null): QueueEntry[] {
  if (change.kind === 'drop') return list.filter((e) => e.id !== change.id);
  const { entry } = change;
  if (entry.userKey !== userKey) return list;
  return list.some((e) => e.id === entry.id) ? list.map((e) => (e.id === entry.id ? entry : e)) : [...list, entry];
}

export function useWorkshopQueue(userKey: string | null, runningOnServer: number): WorkshopQueue {
  const { i18n, t } = useTranslation();
  const queryClient = useQueryClient();
  const { online } = useOnlineStatus();
  const [entries, setEntries] = useState<QueueEntry[]>([]);
  const [loaded, setLoaded] = useState(false);
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

  useEffect(() => {
    let live = true;
    setLoaded(false);
    setEntries([]);
    if (!userKey) return;
    if (inflightOwner !== userKey) stopAll();
    inflightOwner = userKey;
    const listener = (change: Change) => setEntries((list) => applyChange(list, change, userKey));
    listeners.add(listener);
    void (async () => {
      await wipeOtherWorkshopQueues(userKey).catch(() => undefined);
      // A send that outlived the last visit to this page is still going: it stays "sending".
      const raw = await readWorkshopQueue<QueueEntry>(userKey).catch(() => []);
      const stored = raw.map((e) => (inflight.has(e.id) ? { ...e, state: 'sending' as const } : afterReload([e])[0]!));
      if (!live) return;
      // Items added while the stored ones were being read are kept: the read may predate their write.
      setEntries((list) => [...stored.filter((s) => !list.some((e) => e.id === s.id)), ...list]);
      setLoaded(true);
    })();
    return () => {
      live = false;
      listeners.delete(listener);
    };
  }, [userKey]);

  const save = useCallback(async (entry: QueueEntry) => {
    announce({ kind: 'put', entry });
    await putWorkshopQueueRecord(entry).catch(() => undefined);
  }, []);

  const drop = useCallback(async (id: string) => {
    announce({ kind: 'drop', id });
    await deleteWorkshopQueueRecord(id).catch(() => undefined);
  }, []);

  const putItem = useCallback((item: WorkshopItem) => putWorkshopItem(queryClient, item), [queryClient]);

  const send = useCallback(
    async (entry: QueueEntry) => {
      const controller = new AbortController();
      inflight.set(entry.id, controller);
      let current: QueueEntry = { ...entry, state: 'sending', error: undefined, retryable: undefined, retryAt: undefined };
      await save(current);
      try {
        const item = await withRetry(
          (signal) =>
            createWorkshopItem(
              {
                type: entry.type,
                text: entry.text,
                files: entry.files,
                config: entry.config,
                language: entry.language ?? i18n.resolvedLanguage ?? 'zh-CN',
                // The entry's id: a resend after a lost answer, or after a reload, makes no second item.
                idempotencyKey: entry.id,
              },
              signal,
            ),
          {
            signal: controller.signal,
            onRetry: (streak, error) => {
              if (controller.signal.aborted) return;
              current = { ...current, retryAt: streak.nextAttemptAt, error: isApiError(error) ? error.message : undefined };
              void save(current);
            },
          },
        );
        if (controller.signal.aborted) return;
        // A list fetch begun before the server had this item must not land after it and drop it,
        // or the slot it holds looks free and a third item goes out.
        await queryClient.cancelQueries({ queryKey: queryKeys.workshop.items() });
        putItem(item);
        await drop(entry.id);
        void queryClient.invalidateQueries({ queryKey: queryKeys.workshop.items() });
      } catch (error) {
        if (controller.signal.aborted || isCancelled(error)) return;
        const last = error instanceof RetryGaveUp ? error.lastError : error;
        const message = isApiError(last) ? last.message : t('workshop.errors.sendFailed');
        await save({ ...current, state: 'failed', error: message, retryable: error instanceof RetryGaveUp, retryAt: undefined });
      } finally {
        if (inflight.get(entry.id) === controller) inflight.delete(entry.id);
      }
    },
    [drop, i18n.resolvedLanguage, putItem, queryClient, save, t],
  );

  // Start what fits whenever a slot frees up (an item finished, a send ended, the connection came back).
  useEffect(() => {
    if (!loaded || !online) return;
    const view = entries.map((e) => (inflight.has(e.id) ? { ...e, state: 'sending' as const } : e));
    for (const entry of entriesToStart(view, runningOnServer)) {
      if (!inflight.has(entry.id)) void send(entry);
    }
  }, [entries, loaded, online, runningOnServer, send]);

  const add = useCallback<WorkshopQueue['add']>(
    async (input) => {
      if (!userKey) return;
      const entry: QueueEntry = {
        ...input,
        id: randomUuid(),
        userKey,
        language: i18n.resolvedLanguage ?? 'zh-CN',
        state: 'waiting',
        createdAt: Date.now(),
      };
      // Kept on the device before it shows: an item that only lived in the page would be lost on a
      // reload without a word. A full disk gives up old media first (it can be fetched again); if
      // the write still fails, the error reaches the composer, which keeps the item and says why.
      const bytes = entry.files.reduce((sum, file) => sum + file.blob.size, 0);
      await withQuotaRecovery(() => putWorkshopQueueRecord(entry), bytes);
      announce({ kind: 'put', entry });
    },
    [i18n.resolvedLanguage, userKey],
  );

  const removeEntry = useCallback(
    async (id: string) => {
      inflight.get(id)?.abort();
      await drop(id);
    },
    [drop],
  );

  const resendEntry = useCallback(
    async (id: string) => {
      const entry = entriesRef.current.find((e) => e.id === id);
      if (entry) await save({ ...entry, state: 'waiting', error: undefined, retryable: undefined });
    },
    [save],
  );

  const cancelItem = useCallback(
    async (id: number) => {
      const item = await cancelWorkshopItem(id);
      putItem(item);
      return item;
    },
    [putItem],
  );

  const retryItem = useCallback(
    async (id: number) => {
      const key = newIdempotencyKey();
      const item = await withRetry(() => retryWorkshopItem(id, key));
      putItem(item);
      return item;
    },
    [putItem],
  );

  return { entries, loaded, add, removeEntry, resendEntry, cancelItem, retryItem };
}
