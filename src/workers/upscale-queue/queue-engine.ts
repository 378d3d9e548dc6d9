// The batch upscale queue: a sliding window of at most three requests, per-item states, cancel and
// retry, persistence after every state change, and a pause that lifts itself when the upscale
// service answers again. A request cut short by a reload or a lost connection is resent by itself
// with its kept Idempotency-Key, but only to a server that says it replays such resends.
// Pure logic over injected I/O so unit tests drive it without a browser.
import {
  MAX_IN_FLIGHT,
  type EnqueueEntry,
  type PauseReason,
  type QueueAuth,
  type QueueItem,
  type QueueSnapshot,
  type UpscaleParams,
} from './protocol';
import type { QueueStore } from './queue-store';
import type { Sender, SendOutcome } from './send-types';

export interface QueueEngineDeps {
  store: QueueStore;
  send: Sender;
  /** Is the upscale service reachable, and does it replay a resend with the same key? (a cheap GET) */
  probe(auth: QueueAuth): Promise<ProbeResult>;
  /**
   * Tells the service to stop the job under an idempotency key now (the user cancelled it); without
   * it the service keeps a keyed job alive for a resend grace. Best effort: failures are ignored.
   */
  cancelOnServer?(idempotencyKey: string, auth: QueueAuth): Promise<void>;
  /** Downloads a finished result so it stays on the device; optional. */
  fetchResult?(url: string, auth: QueueAuth): Promise<{ blob: Blob; width?: number; height?: number }>;
  onSnapshot(snapshot: QueueSnapshot): void;
  now?(): number;
  newId?(): string;
  /** Timer used for probe back-off; tests replace it. */
  setTimer?(fn: () => void, ms: number): () => void;
  /** Request limit (spec §4: three in parallel). */
  maxInFlight?: number;
}

export interface ProbeResult {
  reachable: boolean;
  /** The server answers a repeated Idempotency-Key from its first attempt instead of running it again. */
  resendSafe: boolean;
}

const PROBE_DELAYS_MS = [1000, 2000, 4000, 8000, 10_000];
/** An item cut short this many times waits for the user: it may be what brings the server down. */
export const MAX_AUTOMATIC_ATTEMPTS = 4;

export class QueueEngine {
  private items = new Map<string, QueueItem>();
  private blobs = new Map<string, Blob>();
  private inFlight = new Map<string, AbortController>();
  private auth: QueueAuth | null = null;
  private paused: PauseReason = null;
  private probeAttempt = 0;
  private cancelProbe: (() => void) | null = null;
  private seq = 0;
  private loading: Promise<void> = Promise.resolve();
  /** While the server is asked whether resends are safe, nothing starts. */
  private checkingResend = false;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;
  private readonly max: number;

  constructor(private readonly deps: QueueEngineDeps) {
    this.now = deps.now ?? (() => Date.now());
    this.newId = deps.newId ?? (() => crypto.randomUUID());
    this.setTimer =
      deps.setTimer ??
      ((fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      });
    this.max = deps.maxInFlight ?? MAX_IN_FLIGHT;
  }

  /** Sets the token and base URL; a new owner loads that user's persisted queue and resumes it. */
  async configure(auth: QueueAuth): Promise<void> {
    const ownerChanged = this.auth?.owner !== auth.owner;
    this.auth = auth;
    if (ownerChanged) {
      for (const c of this.inFlight.values()) c.abort();
      this.inFlight.clear();
      this.items.clear();
      this.blobs.clear();
      this.loading = this.resume(auth.owner);
    }
    await this.loading;
    if (this.paused === 'auth' && auth.token) this.paused = null;
    // Ask the server first, so a cut-short request keeps its place ahead of the ones behind it.
    if (ownerChanged && this.hasInterrupted()) void this.resendInterruptedIfSafe();
    this.pump();
    this.emit();
  }

  /** Items of a reloaded page: a request that may have reached the server becomes interrupted until the server says a resend is safe. */
  private async resume(owner: string): Promise<void> {
    const stored = await this.deps.store.loadItems(owner);
    for (const item of stored) {
      if (item.status === 'processing') {
        item.status = item.bytesSent ? 'interrupted' : 'waiting';
        item.progress = 0;
        item.updatedAt = this.now();
        await this.deps.store.putItem(item);
      }
      this.items.set(item.id, item);
      this.seq = Math.max(this.seq, item.seq + 1);
    }
  }

  async enqueue(entries: EnqueueEntry[], params: UpscaleParams): Promise<string[]> {
    await this.loading;
    if (!this.auth) throw new Error('queue not configured');
    const ids: string[] = [];
    for (const entry of entries) {
      const now = this.now();
      const item: QueueItem = {
        id: this.newId(),
        userKey: this.auth.owner,
        fileId: entry.fileId,
        fileName: entry.name,
        fileType: entry.type,
        fileSize: entry.size,
        params: { ...params },
        status: 'waiting',
        progress: 0,
        idempotencyKey: this.newId(),
        bytesSent: false,
        attempts: 0,
        seq: this.seq++,
        createdAt: now,
        updatedAt: now,
      };
      this.items.set(item.id, item);
      this.blobs.set(item.id, entry.blob);
      await this.deps.store.putItem(item);
      ids.push(item.id);
    }
    this.pump();
    this.emit();
    return ids;
  }

  async cancel(id: string): Promise<void> {
    const item = this.items.get(id);
    if (!item || !['waiting', 'processing', 'interrupted'].includes(item.status)) return;
    const onServer = this.mayBeOnServer(item);
    await this.update(item, { status: 'cancelled', progress: 0 });
    // Aborting after the state change makes the send's 'aborted' outcome a no-op: cancel is not an error.
    this.inFlight.get(id)?.abort();
    if (onServer) this.stopOnServer(item);
    this.pump();
  }

  async cancelAll(): Promise<void> {
    // Mark every item first, then abort: cancelling one by one would let the window refill.
    const targets = this.sorted().filter((i) => ['waiting', 'processing', 'interrupted'].includes(i.status));
    const onServer = targets.filter((item) => this.mayBeOnServer(item));
    const writes = targets.map((item) => this.update(item, { status: 'cancelled', progress: 0 }));
    for (const item of targets) this.inFlight.get(item.id)?.abort();
    for (const item of onServer) this.stopOnServer(item);
    await Promise.all(writes);
  }

  async retry(id: string): Promise<void> {
    const item = this.items.get(id);
    if (!item || !['failed', 'cancelled', 'interrupted'].includes(item.status)) return;
    // An interrupted request keeps its key, so a server that honours it replays instead of redoing;
    // a failed or cancelled one is a new request (never joining the job the user cancelled).
    const keep = item.status === 'interrupted';
    await this.update(item, {
      status: 'waiting',
      progress: 0,
      error: undefined,
      bytesSent: false,
      idempotencyKey: keep ? item.idempotencyKey : this.newId(),
      keySent: keep ? item.keySent : undefined,
    });
    this.pump();
  }

  async retryAllFailed(): Promise<void> {
    for (const item of this.sorted()) {
      if (item.status === 'failed' || item.status === 'interrupted') await this.retry(item.id);
    }
  }

  async remove(id: string): Promise<void> {
    const item = this.items.get(id);
    if (!item) return;
    if (item.status === 'processing') this.inFlight.get(id)?.abort();
    if (['waiting', 'processing', 'interrupted'].includes(item.status) && this.mayBeOnServer(item))
      this.stopOnServer(item);
    this.items.delete(id);
    this.blobs.delete(id);
    await this.deps.store.deleteItem(id);
    await this.deps.store.deleteResult(id);
    this.pump();
    this.emit();
  }

  async clearFinished(): Promise<void> {
    for (const item of this.sorted()) {
      if (['completed', 'cancelled', 'failed'].includes(item.status)) await this.remove(item.id);
    }
  }

  async wipe(): Promise<void> {
    for (const c of this.inFlight.values()) c.abort();
    for (const item of [...this.items.values()]) {
      await this.deps.store.deleteItem(item.id);
      await this.deps.store.deleteResult(item.id);
    }
    this.inFlight.clear();
    this.items.clear();
    this.blobs.clear();
    this.emit();
  }

  /** The browser's online/offline events: offline pauses at once, online probes at once. */
  setOnline(online: boolean): void {
    if (!online) {
      this.pause('offline');
    } else if (this.paused === 'offline' || this.paused === 'busy') {
      this.probeAttempt = 0;
      this.scheduleProbe(0);
    }
  }

  /** Whether the service may hold a job under the item's current key (in flight, or kept for a resend). */
  private mayBeOnServer(item: QueueItem): boolean {
    // Items persisted before keySent existed: the status still tells.
    return item.keySent === true || item.status === 'processing' || item.status === 'interrupted';
  }

  /** Fire and forget: the UI never waits for it, and if it fails (offline) the grace ends the job. */
  private stopOnServer(item: QueueItem): void {
    const auth = this.auth;
    if (!auth || !this.deps.cancelOnServer) return;
    try {
      void this.deps.cancelOnServer(item.idempotencyKey, auth).catch(() => {});
    } catch {
      // same as a failed request
    }
  }

  /** Asks the server whether a resend is safe; if so, interrupted items go back to the window with their kept key. */
  private async resendInterruptedIfSafe(): Promise<void> {
    const auth = this.auth;
    if (!auth) return;
    this.checkingResend = true;
    let probe: ProbeResult;
    try {
      probe = await this.safeProbe(auth);
    } finally {
      this.checkingResend = false;
    }
    if (this.auth?.owner !== auth.owner) return; // another user signed in meanwhile
    if (!probe.reachable) {
      // The probe loop comes back here once the server answers.
      this.pause('offline');
      return;
    }
    await this.requeueInterrupted(probe.resendSafe);
  }

  private async requeueInterrupted(resendSafe: boolean): Promise<void> {
    // A server that might run it twice: the user decides.
    for (const item of resendSafe ? this.sorted() : []) {
      if (item.status !== 'interrupted' || item.attempts >= MAX_AUTOMATIC_ATTEMPTS) continue;
      // Same key: the server replays or joins the first attempt instead of running the model again.
      await this.update(item, { status: 'waiting', progress: 0, bytesSent: false });
    }
    this.pump();
  }

  private hasInterrupted(): boolean {
    return [...this.items.values()].some((i) => i.status === 'interrupted');
  }

  private async safeProbe(auth: QueueAuth): Promise<ProbeResult> {
    try {
      return await this.deps.probe(auth);
    } catch {
      return { reachable: false, resendSafe: false };
    }
  }

  snapshot(): QueueSnapshot {
    return { items: this.sorted().map((i) => ({ ...i })), paused: this.paused, inFlight: this.inFlight.size };
  }

  /** Settles when nothing is in flight (tests). */
  get activeCount(): number {
    return this.inFlight.size;
  }

  private sorted(): QueueItem[] {
    return [...this.items.values()].sort((a, b) => a.seq - b.seq);
  }

  private pump(): void {
    if (this.paused || this.checkingResend || !this.auth?.token) return;
    for (const item of this.sorted()) {
      if (this.inFlight.size >= this.max) break;
      if (item.status === 'waiting' && !this.inFlight.has(item.id)) void this.start(item);
    }
  }

  private async start(item: QueueItem): Promise<void> {
    const auth = this.auth;
    if (!auth) return;
    const controller = new AbortController();
    this.inFlight.set(item.id, controller);
    const startedAt = this.now();
    await this.update(item, {
      status: 'processing',
      progress: 0,
      attempts: item.attempts + 1,
      startedAt,
      keySent: true,
    });
    let outcome: SendOutcome;
    try {
      const blob = this.blobs.get(item.id) ?? (await this.deps.store.getSourceBlob(item.fileId));
      if (!blob) {
        outcome = { kind: 'http-error', status: 0, code: 'source-missing', message: 'source-missing' };
      } else {
        this.blobs.set(item.id, blob);
        outcome = await this.deps.send(
          {
            baseUrl: auth.baseUrl,
            token: auth.token,
            idempotencyKey: item.idempotencyKey,
            blob,
            fileName: item.fileName,
            params: item.params,
          },
          {
            onProgress: (p) => {
              if (item.status !== 'processing' || this.inFlight.get(item.id) !== controller) return;
              item.progress = Math.max(item.progress, Math.min(100, Math.round(p)));
              this.emit();
            },
            onBytesSent: () => {
              if (item.bytesSent || this.inFlight.get(item.id) !== controller) return;
              void this.update(item, { bytesSent: true });
            },
          },
          controller.signal,
        );
      }
    } catch (e) {
      outcome = {
        kind: 'http-error',
        status: 0,
        code: -1,
        message: e instanceof Error ? e.message : String(e),
      };
    }
    // A newer owner or a removal replaced this request: its outcome no longer matters.
    if (this.inFlight.get(item.id) !== controller) return;
    this.inFlight.delete(item.id);
    await this.settle(item, outcome, startedAt);
    this.pump();
    this.emit();
  }

  private async settle(item: QueueItem, outcome: SendOutcome, startedAt: number): Promise<void> {
    if (item.status !== 'processing' || !this.items.has(item.id)) return; // cancelled or removed meanwhile
    switch (outcome.kind) {
      case 'ok': {
        const result = {
          url: outcome.url,
          filename: outcome.filename,
          message: outcome.message,
          durationMs: this.now() - startedAt,
          completedAt: this.now(),
          ...(outcome.width && outcome.height ? { width: outcome.width, height: outcome.height } : {}),
        };
        await this.update(item, { status: 'completed', progress: 100, result, error: undefined });
        void this.keepResult(item);
        return;
      }
      case 'aborted':
        await this.update(item, { status: 'cancelled', progress: 0 });
        return;
      case 'network':
        // Nothing left the device: the server cannot have it, so it simply waits for the connection.
        // Otherwise it is interrupted; the probe that sees the server again resends it if that is safe.
        await this.update(item, {
          status: item.bytesSent || outcome.reachedServer ? 'interrupted' : 'waiting',
          progress: 0,
          bytesSent: item.bytesSent || outcome.reachedServer,
        });
        this.pause('offline');
        return;
      case 'http-error': {
        const { status } = outcome;
        if (status === 401) {
          // Refused before any work: wait for a fresh token, then send again.
          await this.update(item, { status: 'waiting', progress: 0, bytesSent: false });
          this.pause('auth');
          return;
        }
        if (status === 429 || status === 503) {
          // The service is full and did not take the job: back off and send again.
          await this.update(item, { status: 'waiting', progress: 0, bytesSent: false });
          this.pause('busy', outcome.retryAfterMs);
          return;
        }
        await this.update(item, {
          status: 'failed',
          progress: 0,
          error: { code: outcome.code, status, message: outcome.message },
        });
        return;
      }
    }
  }

  private async keepResult(item: QueueItem): Promise<void> {
    const auth = this.auth;
    if (!this.deps.fetchResult || !item.result || !auth) return;
    try {
      const { blob, width, height } = await this.deps.fetchResult(item.result.url, auth);
      if (!this.items.has(item.id)) return;
      await this.deps.store.putResult(item.id, item.userKey, blob);
      await this.update(item, {
        resultStored: true,
        result: {
          ...item.result,
          outputSize: blob.size,
          outputType: blob.type,
          width: width ?? item.result.width,
          height: height ?? item.result.height,
        },
      });
    } catch {
      // The signed link still works online; the device copy is a convenience.
    }
  }

  private pause(reason: Exclude<PauseReason, null>, delayMs?: number): void {
    if (this.paused === 'auth' && reason !== 'auth') return;
    const wasPaused = this.paused !== null;
    this.paused = reason;
    this.emit();
    if (reason === 'auth') return; // lifted by configure() with a new token
    if (!wasPaused || delayMs !== undefined) {
      this.probeAttempt = 0;
      this.scheduleProbe(delayMs ?? PROBE_DELAYS_MS[0]!);
    }
  }

  private scheduleProbe(ms: number): void {
    this.cancelProbe?.();
    this.cancelProbe = this.setTimer(() => void this.runProbe(), ms);
  }

  private async runProbe(): Promise<void> {
    this.cancelProbe = null;
    const auth = this.auth;
    if (!auth || this.paused === null || this.paused === 'auth') return;
    const probe = await this.safeProbe(auth);
    if (probe.reachable) {
      this.paused = null;
      this.probeAttempt = 0;
      await this.requeueInterrupted(probe.resendSafe);
      this.pump();
      this.emit();
      return;
    }
    this.probeAttempt += 1;
    const delay = PROBE_DELAYS_MS[Math.min(this.probeAttempt, PROBE_DELAYS_MS.length - 1)]!;
    this.scheduleProbe(delay);
  }

  private async update(item: QueueItem, patch: Partial<QueueItem>): Promise<void> {
    Object.assign(item, patch, { updatedAt: this.now() });
    for (const key of Object.keys(patch) as (keyof QueueItem)[]) {
      if (patch[key] === undefined) delete item[key];
    }
    this.emit();
    await this.deps.store.putItem(item);
  }

  private emit(): void {
    this.deps.onSnapshot(this.snapshot());
  }
}
