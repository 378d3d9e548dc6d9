// Sends the collections kept on the device (lib/db/collection-draft-store.ts) to the server, one
// collection at a time: every image through tus (purpose "collection", three at a time, each
// resuming the upload it had begun), then POST /collections with the ids. It lives beside the page,
// not in it, so moving around the app does not stop it; the page shows its progress and starts it
// again after a reload. Lost connections and busy servers wait under the product's one retry policy
// (lib/retry); without a connection it waits for one and goes on by itself. A refusal (a file the
// server will not take, a bad item) stops that collection with the server's message, for the person.
import type { CollectionRef } from '../../../../shared/collections/collection-types';
import { isApiError } from '../../../lib/api';
import { refreshSession } from '../../../lib/api/refresh-session';
import { loadRuntimeConfig, tusEndpoint } from '../../../lib/api/runtime-config';
import {
  deletePendingCollection,
  readPendingCollection,
  readPendingCollections,
  readPendingImage,
  updatePendingCollection,
  type PendingCollectionRecord,
} from '../../../lib/db/collection-draft-store';
import {
  checkReachability,
  getOnlineStatus,
  onReconnect,
  reportReachable,
  reportUnreachable,
} from '../../../lib/offline/online-status';
import { planRetry, type RetryStreak } from '../../../lib/retry/retry-policy';
import { isTransientStatus } from '../../../lib/retry/transient-failure';
import { getSession } from '../../../lib/session/session-store';
import { runTusAttempt } from '../../../lib/upload/tus-upload';
import { createCollection } from '../api/collections-api';
import { createCollectionBody } from '../model/pending-collection';

/** Images sent at once: enough to fill a fair's uplink, few enough that one cut loses little. */
const UPLOAD_LANES = 3;

export type PendingPhase = 'uploading' | 'creating' | 'offline' | 'retrying' | 'stalled' | 'refused';

export interface PendingProgress {
  id: string;
  name: string;
  items: number;
  images: number;
  uploaded: number;
  bytesDone: number;
  bytesTotal: number;
  phase: PendingPhase;
  /** When the next attempt starts (phase retrying). */
  retryAt: number | null;
  /** The server's or the network's words (phases stalled and refused). */
  message: string | null;
}

/** The server would refuse the same request again: the person decides. */
class Refused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Worth trying again after a wait (no connection, a busy or restarting server). */
class Transient extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

class Aborted extends Error {}

type Listener = () => void;
type CreatedListener = (created: { clientId: string; name: string; ref: CollectionRef }) => void;

let userKey: string | null = null;
let loop: Promise<void> | null = null;
let again = false;
let snapshot: readonly PendingProgress[] = [];
const progress = new Map<string, PendingProgress>();
const controllers = new Map<string, AbortController>();
const listeners = new Set<Listener>();
const createdListeners = new Set<CreatedListener>();
/** Wakes a wait early: the connection came back, or the person pressed Try again. */
let wake: (() => void) | null = null;
onReconnect(() => wake?.());

function publish(): void {
  snapshot = [...progress.values()];
  for (const listener of listeners) listener();
}

function setProgress(id: string, change: Partial<PendingProgress>): void {
  const current = progress.get(id);
  if (!current) return;
  progress.set(id, { ...current, ...change });
  publish();
}

function progressOf(record: PendingCollectionRecord): PendingProgress {
  const done = record.images.filter((i) => i.uploadId);
  return {
    id: record.id,
    name: record.name,
    items: record.items.length,
    images: record.images.length,
    uploaded: done.length,
    bytesDone: done.reduce((sum, i) => sum + i.size, 0),
    bytesTotal: record.images.reduce((sum, i) => sum + i.size, 0),
    phase: record.refused ? 'refused' : getOnlineStatus().online ? 'uploading' : 'offline',
    retryAt: null,
    message: record.refused?.message ?? null,
  };
}

export function subscribePending(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getPendingSnapshot(): readonly PendingProgress[] {
  return snapshot;
}

export function onCollectionCreated(listener: CreatedListener): () => void {
  createdListeners.add(listener);
  return () => createdListeners.delete(listener);
}

/** Starts sending this user's kept collections, if it is not doing so already. */
export function resumePending(forUser: string): void {
  if (userKey !== forUser) {
    for (const controller of controllers.values()) controller.abort();
    progress.clear();
    publish();
  }
  userKey = forUser;
  if (loop) {
    // A new Start or a Try again while it runs: it reads the kept collections once more after this round.
    again = true;
    wake?.();
    return;
  }
  again = false;
  loop = runAll(forUser).finally(() => {
    loop = null;
    if (again && userKey) resumePending(userKey);
  });
}

/** Stops and forgets a kept collection; its finished uploads lapse on the server. */
export async function cancelPending(id: string): Promise<void> {
  controllers.get(id)?.abort();
  await deletePendingCollection(id);
  progress.delete(id);
  publish();
}

/** A refused or stalled collection is tried again (the person fixed the cause, or the server is back). */
export async function retryPending(id: string): Promise<void> {
  await updatePendingCollection(id, (record) => ({ ...record, refused: null }));
  setProgress(id, { phase: 'uploading', message: null, retryAt: null });
  if (userKey) resumePending(userKey);
  wake?.();
}

async function runAll(forUser: string): Promise<void> {
  const attempted = new Set<string>();
  for (;;) {
    if (userKey !== forUser) return;
    const records = await readPendingCollections(forUser).catch(() => []);
    for (const record of records) if (!progress.has(record.id)) progress.set(record.id, progressOf(record));
    for (const id of progress.keys()) if (!records.some((r) => r.id === id)) progress.delete(id);
    publish();
    const next = records.find((r) => !r.refused && !attempted.has(r.id));
    if (!next) return;
    attempted.add(next.id);
    await runOne(next);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      if (wake === done) wake = null;
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    wake = done;
  });
}

async function runOne(first: PendingCollectionRecord): Promise<void> {
  const id = first.id;
  const controller = new AbortController();
  controllers.set(id, controller);
  const { signal } = controller;
  let streak: RetryStreak | undefined;
  let reuploaded = false;
  try {
    for (;;) {
      if (signal.aborted) return;
      if (!getOnlineStatus().online) {
        setProgress(id, { phase: 'offline', retryAt: null });
        void checkReachability();
        await sleep(5_000, signal);
        if (!getOnlineStatus().online) continue;
      }
      try {
        const record = await readPendingCollection(id);
        if (!record) return;
        await uploadImages(record, signal, () => {
          streak = undefined;
        });
        setProgress(id, { phase: 'creating', retryAt: null, message: null });
        const ref = await create(id, signal, !reuploaded);
        await deletePendingCollection(id);
        progress.delete(id);
        publish();
        for (const listener of createdListeners) listener({ clientId: id, name: record.name, ref });
        return;
      } catch (error) {
        if (signal.aborted || error instanceof Aborted) return;
        if (error instanceof Refused) {
          if (error.code === 'reupload' && !reuploaded) {
            reuploaded = true;
            continue;
          }
          await updatePendingCollection(id, (r) => ({ ...r, refused: { code: error.code, message: error.message } }));
          setProgress(id, { phase: 'refused', message: error.message, retryAt: null });
          return;
        }
        const transient = error instanceof Transient ? error : new Transient(String(error));
        const decision = planRetry(streak, Date.now(), { retryAfterMs: transient.retryAfterMs });
        streak = decision.streak;
        if (decision.kind === 'give-up') {
          // The budget of trying is spent: the person is asked (Try again), nothing is dropped.
          setProgress(id, { phase: 'stalled', message: transient.message, retryAt: null });
          streak = undefined;
          await new Promise<void>((resolve) => {
            wake = resolve;
            signal.addEventListener('abort', () => resolve(), { once: true });
          });
          continue;
        }
        setProgress(id, { phase: 'retrying', retryAt: decision.streak.nextAttemptAt, message: transient.message });
        await sleep(decision.delayMs, signal);
      }
    }
  } finally {
    controllers.delete(id);
  }
}

async function uploadImages(record: PendingCollectionRecord, signal: AbortSignal, onSuccess: () => void): Promise<void> {
  const endpoint = tusEndpoint(await loadRuntimeConfig(), location.href);
  if (!endpoint) throw new Refused('no_tus', 'The server takes no resumable uploads.');
  const waiting = record.images.flatMap((image, index) => (image.uploadId ? [] : [index]));
  const sent = new Map<number, number>();
  const baseDone = record.images.reduce((sum, i) => sum + (i.uploadId ? i.size : 0), 0);
  let uploaded = record.images.length - waiting.length;
  const report = () =>
    setProgress(record.id, {
      phase: 'uploading',
      uploaded,
      bytesDone: baseDone + [...sent.values()].reduce((a, b) => a + b, 0),
      retryAt: null,
      message: null,
    });
  report();
  let failure: unknown = null;
  const lane = async () => {
    while (waiting.length > 0 && !failure && !signal.aborted) {
      const index = waiting.shift()!;
      try {
        await uploadOne(record, index, signal, (bytes) => {
          sent.set(index, bytes);
          report();
        });
        uploaded += 1;
        onSuccess();
        report();
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: UPLOAD_LANES }, lane));
  if (signal.aborted) throw new Aborted();
  if (failure) throw failure;
}

async function uploadOne(
  record: PendingCollectionRecord,
  index: number,
  signal: AbortSignal,
  onBytes: (bytes: number) => void,
  refreshed = false,
): Promise<void> {
  const current = (await readPendingCollection(record.id))?.images[index] ?? record.images[index]!;
  const blob = await readPendingImage(record.id, index);
  if (!blob) throw new Refused('image_lost', current.name);
  const outcome = await runTusAttempt({
    endpoint: (tusEndpoint(await loadRuntimeConfig(), location.href))!,
    uploadUrl: current.uploadUrl ?? undefined,
    file: blob,
    size: blob.size,
    fileName: current.name.slice(current.name.lastIndexOf('/') + 1),
    fileType: current.type || blob.type || 'application/octet-stream',
    purpose: 'collection',
    token: () => getSession().token,
    signal,
    onUrl: (url) => void setImage(record.id, index, { uploadUrl: url }),
    onAccepted: (bytes) => onBytes(bytes),
  });
  switch (outcome.kind) {
    case 'done':
      reportReachable();
      await setImage(record.id, index, { uploadUrl: outcome.url, uploadId: outcome.id });
      return;
    case 'aborted':
      throw new Aborted();
    case 'network':
      reportUnreachable();
      throw new Transient(outcome.message);
    case 'http-error': {
      const { status } = outcome;
      if (status === 401 && !refreshed && (await refreshOrTransient()))
        return uploadOne(record, index, signal, onBytes, true);
      // Gone (lapsed): start it again. Locked or out of step: resume it.
      if (status === 404 || status === 410) await setImage(record.id, index, { uploadUrl: null });
      if (status === 404 || status === 410 || status === 409 || status === 423 || isTransientStatus(status))
        throw new Transient(outcome.message || String(status), outcome.retryAfterMs);
      throw new Refused(String(outcome.code), `${current.name}: ${outcome.message || status}`);
    }
  }
}

/** The refresh, with no answer to it counted like any lost connection: try again later. */
async function refreshOrTransient(): Promise<boolean> {
  try {
    return await refreshSession();
  } catch (error) {
    reportUnreachable();
    throw new Transient(error instanceof Error ? error.message : String(error));
  }
}

function setImage(
  id: string,
  index: number,
  change: Partial<PendingCollectionRecord['images'][number]>,
): Promise<unknown> {
  return updatePendingCollection(id, (record) => ({
    ...record,
    images: record.images.map((image, i) => (i === index ? { ...image, ...change } : image)),
  })).catch(() => undefined);
}

async function create(id: string, signal: AbortSignal, mayReupload: boolean): Promise<CollectionRef> {
  const record = await readPendingCollection(id);
  if (!record) throw new Aborted();
  const body = createCollectionBody({
    clientCollectionId: record.id,
    name: record.name,
    language: record.language,
    settings: record.settings,
    items: record.items,
    uploadIds: record.images.map((i) => i.uploadId),
  });
  try {
    return await createCollection(body, signal);
  } catch (error) {
    if (signal.aborted) throw new Aborted();
    if (!isApiError(error)) throw new Transient(String(error));
    if (error.kind === 'cancelled') throw new Aborted();
    if (error.kind === 'network') {
      reportUnreachable();
      throw new Transient(error.message);
    }
    const status = error.status ?? 0;
    if (isTransientStatus(status))
      throw new Transient(
        error.message,
        error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : undefined,
      );
    // An upload the server no longer has (lapsed, or never finished): send the images again, once.
    if ((status === 404 || status === 409) && mayReupload) {
      await updatePendingCollection(id, (r) => ({
        ...r,
        images: r.images.map((image) => ({ ...image, uploadUrl: null, uploadId: null })),
      }));
      throw new Refused('reupload', error.message);
    }
    throw new Refused(String(status || error.code), error.message);
  }
}
