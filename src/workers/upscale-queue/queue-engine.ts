// The batch upscale queue: a sliding window of at most three requests, per-item states, cancel and
// retry, persistence after every state change, and a pause that lifts itself when the upscale
// service answers again. A request cut short by a reload or a lost connection is resent by itself
// with its kept Idempotency-Key, but only to a server that says it replays such resends.
// Resends follow the product's retry policy (lib/retry): each failed item waits its own growing
// delay, even when the service's probe answers (small requests may pass while uploads are cut),
// and only after the policy's time budget does it stop and wait for the person.
// When the service cannot be reached, waiting items are upscaled on this device one at a time (the
// injected `local`), and so is every item the designer sent "on this device"; the queue goes back
// to the server for the rest once its probe answers. Each result says where it was made.
// Pure logic over injected I/O so unit tests drive it without a browser.
import {
  backoffDelay,
  easeAfterSuccess,
  pauseStreak,
  planRetry,
} from '../../lib/retry/retry-policy';
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
import { RETRY_BUDGET_SPENT } from './retry-budget';
import type { LocalOutcome, LocalUpscaler, Sender, SendOutcome } from './send-types';

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
  /** Upscales on this device: while the service cannot be reached, and for items sent "on this device". */
  local?: LocalUpscaler;
  onSnapshot(snapshot: QueueSnapshot): void;
  now?(): number;
  newId?(): string;
  /** Timer used for probe back-off and item retry delays; tests replace it. */
  setTimer?(fn: () => void, ms: number): () => void;
  /** Jitter source of the retry delays; tests make it fixed. */
  random?(): number;
  /** Request limit (spec §4: three in parallel). */
  maxInFlight?: number;
}

export interface ProbeResult {
  reachable: boolean;
  /** The server answers a repeated Idempotency-Key from its first attempt instead of running it again. */
  resendSafe: boolean;
}

const PROBE_DELAYS_MS = [1000, 2000, 4000, 8000, 10_000];
/** Answers from a gateway or a timeout: the request may have reached the service, as with a cut. */
const CUT_STATUSES = new Set([408, 502, 504]);

export class QueueEngine {
  private items = new Map<string, QueueItem>();
  private blobs = new Map<string, Blob>();
  private inFlight = new Map<string, AbortController>();
  private auth: QueueAuth | null = null;
  private paused: PauseReason = null;
  private probeAttempt = 0;
  private cancelProbe: (() => void) | null = null;
  /** Wakes the window when the earliest item waiting out its retry delay is due. */
  private cancelWake: (() => void) | null = null;
  private wakeAt = Infinity;
  /** A reachability check started by a failed item; later failures join it. */
  private checking: Promise<void> | null = null;
  /** When the queue lost the service: time without any chance to try is not spent from budgets. */
  private offlineSince: number | null = null;
  private seq = 0;
  private loading: Promise<void> = Promise.resolve();
  /** While the server is asked whether resends are safe, nothing starts. */
  private checkingResend = false;
  /** The item being upscaled on this device (one at a time: a tablet's memory holds one job). */
  private localItem: string | null = null;
  /** A fallback is being prepared (are the graphs here?); nothing else starts on the device meanwhile. */
  private localChecking = false;
  /** The device could not get the graphs while the service was away: it waits for the service. */
  private localUnavailable = false;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly setTimer: (fn: () => void, ms: number) => () => void;
  private readonly max: number;
  private readonly random: () => number;

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
    this.random = deps.random ?? Math.random;
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
      // The page was closed meanwhile: nothing was tried, so the budget's clock starts again now.
      if (item.retry) item.retry = { ...item.retry, since: this.now() };
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
      retry: undefined,
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
    if (this.localItem === item.id) return false;
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
      if (item.status !== 'interrupted') continue;
      // Same key: the server replays or joins the first attempt instead of running the model again.
      // It keeps its retry delay: an answering service is no proof that its upload will pass now.
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
    this.pumpLocal();
    if (this.paused || this.checkingResend || !this.auth?.token) return;
    const now = this.now();
    let nextDue = Infinity;
    for (const item of this.sorted()) {
      if (this.inFlight.size >= this.max) break;
      if (item.status !== 'waiting' || this.inFlight.has(item.id)) continue;
      if (item.params.onDevice && this.deps.local) continue;
      // An item waiting out its retry delay lets the ones behind it go first.
      if (item.retry && item.retry.nextAttemptAt > now) {
        nextDue = Math.min(nextDue, item.retry.nextAttemptAt);
        continue;
      }
      void this.start(item);
    }
    if (nextDue < Infinity) this.wakeAtTime(nextDue);
  }

  /** Starts the next item for this device: any waiting one while the service is unreachable. */
  private pumpLocal(): void {
    const local = this.deps.local;
    const auth = this.auth;
    if (!local || !auth?.token || this.localItem !== null || this.localChecking || this.checkingResend) return;
    const offline = this.paused === 'offline' && !this.localUnavailable;
    const now = this.now();
    const next = this.sorted().find(
      (item) =>
        item.status === 'waiting' &&
        !this.inFlight.has(item.id) &&
        (item.params.onDevice === true || offline) &&
        // An item that chose the device waits out its own retry delay; a fallback does not wait.
        (offline || !item.retry || item.retry.nextAttemptAt <= now),
    );
    if (!next) return;
    if (next.params.onDevice) {
      void this.startLocal(next, local);
      return;
    }
    // A fallback starts only when the device has the model's graphs; otherwise the item keeps its
    // place and waits for the service, as before.
    this.localChecking = true;
    void local
      .ready(next.params.modelName, auth)
      .catch(() => false)
      .then((ready) => {
        this.localChecking = false;
        if (this.auth?.owner !== auth.owner) return;
        if (!ready) this.localUnavailable = true;
        else if (next.status === 'waiting' && this.paused === 'offline' && !this.inFlight.has(next.id))
          void this.startLocal(next, local);
        this.pump();
      });
  }

  private async startLocal(item: QueueItem, local: LocalUpscaler): Promise<void> {
    const auth = this.auth;
    if (!auth) return;
    const controller = new AbortController();
    this.inFlight.set(item.id, controller);
    this.localItem = item.id;
    const startedAt = this.now();
    let outcome: LocalOutcome;
    try {
      await this.update(item, {
        status: 'processing',
        progress: 0,
        attempts: item.attempts + 1,
        startedAt,
        runningLocally: true,
      });
      const blob = this.blobs.get(item.id) ?? (await this.deps.store.getSourceBlob(item.fileId));
      if (!blob) outcome = { kind: 'error', code: 'source-missing', message: 'source-missing' };
      else {
        this.blobs.set(item.id, blob);
        outcome = await local.run(
          { blob, fileName: item.fileName, params: item.params, auth },
          (p) => {
            if (item.status !== 'processing' || this.inFlight.get(item.id) !== controller) return;
            item.progress = Math.max(item.progress, Math.min(100, Math.round(p)));
            this.emit();
          },
          controller.signal,
        );
      }
    } catch (e) {
      outcome = { kind: 'error', code: 'device-error', message: e instanceof Error ? e.message : String(e) };
    } finally {
      if (this.localItem === item.id) this.localItem = null;
    }
    if (this.inFlight.get(item.id) !== controller) {
      this.pump();
      return;
    }
    this.inFlight.delete(item.id);
    if (item.runningLocally) await this.update(item, { runningLocally: undefined });
    if (item.status === 'processing' && this.items.has(item.id)) {
      if (outcome.kind === 'ok') {
        await this.deps.store.putResult(item.id, item.userKey, outcome.blob);
        const now = this.now();
        await this.update(item, {
          status: 'completed',
          progress: 100,
          error: undefined,
          retry: undefined,
          resultStored: true,
          result: {
            url: '',
            filename: item.fileName,
            message: '',
            durationMs: now - startedAt,
            completedAt: now,
            outputSize: outcome.blob.size,
            outputType: outcome.blob.type,
            width: outcome.width,
            height: outcome.height,
            madeOn: 'device',
          },
        });
      } else if (outcome.kind === 'aborted') {
        await this.update(item, { status: 'cancelled', progress: 0 });
      } else if (outcome.code === 'models_unavailable' && !item.params.onDevice) {
        // The graphs went away with the service: the item waits for it, as it did before.
        this.localUnavailable = true;
        await this.update(item, { status: 'waiting', progress: 0 });
      } else {
        await this.update(item, {
          status: 'failed',
          progress: 0,
          error: { code: outcome.code, status: 0, message: outcome.message },
        });
      }
    }
    this.pump();
    this.emit();
  }

  private wakeAtTime(at: number): void {
    if (this.cancelWake && this.wakeAt <= at) return;
    this.cancelWake?.();
    this.wakeAt = at;
    this.cancelWake = this.setTimer(
      () => {
        this.cancelWake = null;
        this.wakeAt = Infinity;
        this.pump();
        this.emit();
      },
      Math.max(0, at - this.now()),
    );
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
      runningLocally: undefined,
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
          madeOn: 'server' as const,
          ...(outcome.width && outcome.height ? { width: outcome.width, height: outcome.height } : {}),
        };
        await this.update(item, { status: 'completed', progress: 100, result, error: undefined, retry: undefined });
        await this.easeRetries();
        void this.keepResult(item);
        return;
      }
      case 'aborted':
        await this.update(item, { status: 'cancelled', progress: 0 });
        return;
      case 'network':
        await this.failedInTransit(item, item.bytesSent || outcome.reachedServer === true);
        return;
      case 'http-error': {
        const { status } = outcome;
        if (CUT_STATUSES.has(status)) {
          await this.failedInTransit(item, true, outcome.retryAfterMs);
          return;
        }
        if (status === 401) {
          // Refused before any work: wait for a fresh token, then send again.
          await this.update(item, { status: 'waiting', progress: 0, bytesSent: false });
          this.pause('auth');
          return;
        }
        if (status === 429 || status === 503) {
          // The service is full and did not take the job: back off and send again.
          await this.update(item, { status: 'waiting', progress: 0, bytesSent: false });
          this.pause('busy', backoffDelay(1, { retryAfterMs: outcome.retryAfterMs, random: this.random }));
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

  /**
   * The request failed on the way (a reset, a dropped connection, a gateway's timeout). Nothing
   * left the device: it simply waits. Otherwise it is interrupted, and goes back to the window once
   * the service says a resend with its key is safe. Either way it waits its retry delay first; after
   * the policy's budget it stops and says why.
   */
  private async failedInTransit(item: QueueItem, mayHaveReachedServer: boolean, retryAfterMs?: number): Promise<void> {
    const decision = planRetry(item.retry, this.now(), { retryAfterMs, random: this.random });
    if (decision.kind === 'give-up') {
      await this.update(item, {
        status: 'failed',
        progress: 0,
        retry: undefined,
        error: { code: RETRY_BUDGET_SPENT, status: 0, message: '' },
      });
      return;
    }
    await this.update(item, {
      status: mayHaveReachedServer ? 'interrupted' : 'waiting',
      progress: 0,
      bytesSent: item.bytesSent || mayHaveReachedServer,
      retry: decision.streak,
    });
    void this.checkReachable();
  }

  /** Is the service there at all? Unreachable pauses the queue; reachable lets interrupted items back in. */
  private checkReachable(): Promise<void> {
    const auth = this.auth;
    if (!auth) return Promise.resolve();
    this.checking ??= (async () => {
      try {
        const probe = await this.safeProbe(auth);
        if (this.auth?.owner !== auth.owner) return;
        if (!probe.reachable) this.pause('offline');
        else if (this.paused !== 'offline') await this.requeueInterrupted(probe.resendSafe);
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  /** Another upload went through: items waiting out a long delay try again soon, from the shortest wait. */
  private async easeRetries(): Promise<void> {
    const now = this.now();
    for (const other of this.sorted()) {
      if (!other.retry || (other.status !== 'waiting' && other.status !== 'interrupted')) continue;
      await this.update(other, { retry: easeAfterSuccess(other.retry, now, { random: this.random }) });
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
    if (reason === 'offline' && this.offlineSince === null) this.offlineSince = this.now();
    this.paused = reason;
    // Without the service, this device takes the waiting items.
    if (reason === 'offline') this.pumpLocal();
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
      this.localUnavailable = false;
      this.probeAttempt = 0;
      await this.creditOfflineTime();
      await this.requeueInterrupted(probe.resendSafe);
      this.pump();
      this.emit();
      return;
    }
    this.probeAttempt += 1;
    const delay = PROBE_DELAYS_MS[Math.min(this.probeAttempt, PROBE_DELAYS_MS.length - 1)]!;
    this.scheduleProbe(delay);
  }

  /** The time without the service is not time spent trying: every retry budget gets it back. */
  private async creditOfflineTime(): Promise<void> {
    if (this.offlineSince === null) return;
    const offlineMs = this.now() - this.offlineSince;
    this.offlineSince = null;
    for (const item of this.sorted()) {
      if (item.retry) await this.update(item, { retry: pauseStreak(item.retry, offlineMs) });
    }
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
