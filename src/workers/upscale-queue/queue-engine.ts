// The batch upscale queue: a sliding window of at most three requests, per-item states, cancel and
// retry, persistence after every state change, and a pause that lifts itself when the upscale
// service answers again. This class holds the person's actions and fills the window; the parts
// live beside it:
// - server-lane.ts: one request to the service and what its end means (retry policy, results);
// - device-lane.ts: upscaling on this device, by choice or while the service cannot be reached;
// - service-watch.ts: pausing, probing, and whether an interrupted request may be resent;
// - window-plan.ts, item-transitions.ts, attempt-outcome.ts: the pure decisions.
// All I/O is injected (engine-deps.ts), so unit tests drive it without a browser.
import type { QueueEngineDeps } from './engine-deps';
import { DeviceLane } from './device-lane';
import { FINISHED, RETRYABLE, UNFINISHED, newQueueItem, reloadedRequest, retryPatch } from './item-transitions';
import type { EnqueueEntry, QueueAuth, QueueItem, QueueSnapshot, UpscaleParams } from './protocol';
import { QueueState } from './queue-state';
import { ServerLane } from './server-lane';
import { ServiceWatch } from './service-watch';
import { WakeTimer } from './wake-timer';
import { planServerWindow } from './window-plan';

export class QueueEngine {
  private readonly state: QueueState;
  private readonly watch: ServiceWatch;
  private readonly device: DeviceLane;
  private readonly server: ServerLane;
  /** Wakes the window when the earliest item waiting out its retry delay is due. */
  private readonly wake: WakeTimer;
  private loading: Promise<void> = Promise.resolve();

  constructor(deps: QueueEngineDeps) {
    const state = new QueueState(deps);
    state.emit = () => deps.onSnapshot(this.snapshot());
    this.state = state;
    const pump = () => this.pump();
    this.watch = new ServiceWatch(state, {
      pump,
      deviceTakesOver: () => this.device.startNext(),
      serviceBack: () => this.device.serviceBack(),
    });
    this.device = new DeviceLane(state, this.watch, pump);
    this.server = new ServerLane(state, this.watch, pump);
    this.wake = new WakeTimer(state.setTimer, state.now, () => {
      this.pump();
      state.emit();
    });
  }

  /** Sets the token and base URL; a new owner loads that user's persisted queue and resumes it. */
  async configure(auth: QueueAuth): Promise<void> {
    const { state } = this;
    const ownerChanged = state.auth?.owner !== auth.owner;
    state.auth = auth;
    if (ownerChanged) {
      for (const c of state.inFlight.values()) c.abort();
      state.inFlight.clear();
      state.items.clear();
      state.blobs.clear();
      this.loading = this.resume(auth.owner);
    }
    await this.loading;
    if (auth.token) this.watch.tokenRenewed();
    // Ask the server first, so a cut-short request keeps its place ahead of the ones behind it.
    if (ownerChanged && this.hasInterrupted()) void this.watch.resendInterruptedIfSafe();
    this.pump();
    state.emit();
  }

  /** Items of a reloaded page: a request that may have reached the server becomes interrupted until the server says a resend is safe. */
  private async resume(owner: string): Promise<void> {
    const { state } = this;
    const stored = await state.deps.store.loadItems(owner);
    for (const loaded of stored) {
      const item = loaded.status === 'processing' ? reloadedRequest(loaded, state.now()) : loaded;
      if (item !== loaded) await state.deps.store.putItem(item);
      // The page was closed meanwhile: nothing was tried, so the budget's clock starts again now.
      if (item.retry) item.retry = { ...item.retry, since: state.now() };
      state.items.set(item.id, item);
      state.seq = Math.max(state.seq, item.seq + 1);
    }
  }

  async enqueue(entries: EnqueueEntry[], params: UpscaleParams): Promise<string[]> {
    const { state } = this;
    await this.loading;
    if (!state.auth) throw new Error('queue not configured');
    const ids: string[] = [];
    for (const entry of entries) {
      const item = newQueueItem({
        entry,
        params,
        owner: state.auth.owner,
        now: state.now(),
        id: state.newId(),
        idempotencyKey: state.newId(),
        seq: state.seq++,
      });
      state.items.set(item.id, item);
      state.blobs.set(item.id, entry.blob);
      await state.deps.store.putItem(item);
      ids.push(item.id);
    }
    this.pump();
    state.emit();
    return ids;
  }

  async cancel(id: string): Promise<void> {
    const item = this.state.items.get(id);
    if (!item || !UNFINISHED.includes(item.status)) return;
    const onServer = this.mayBeOnServer(item);
    await this.state.update(item, { status: 'cancelled', progress: 0 });
    // Aborting after the state change makes the send's 'aborted' outcome a no-op: cancel is not an error.
    this.state.inFlight.get(id)?.abort();
    if (onServer) this.stopOnServer(item);
    this.pump();
  }

  async cancelAll(): Promise<void> {
    const { state } = this;
    // Mark every item first, then abort: cancelling one by one would let the window refill.
    const targets = state.sorted().filter((i) => UNFINISHED.includes(i.status));
    const onServer = targets.filter((item) => this.mayBeOnServer(item));
    const writes = targets.map((item) => state.update(item, { status: 'cancelled', progress: 0 }));
    for (const item of targets) state.inFlight.get(item.id)?.abort();
    for (const item of onServer) this.stopOnServer(item);
    await Promise.all(writes);
  }

  async retry(id: string): Promise<void> {
    const item = this.state.items.get(id);
    if (!item || !RETRYABLE.includes(item.status)) return;
    await this.state.update(item, retryPatch(item, this.state.newId));
    this.pump();
  }

  async retryAllFailed(): Promise<void> {
    for (const item of this.state.sorted()) {
      if (item.status === 'failed' || item.status === 'interrupted') await this.retry(item.id);
    }
  }

  async remove(id: string): Promise<void> {
    const { state } = this;
    const item = state.items.get(id);
    if (!item) return;
    if (item.status === 'processing') state.inFlight.get(id)?.abort();
    if (UNFINISHED.includes(item.status) && this.mayBeOnServer(item)) this.stopOnServer(item);
    state.items.delete(id);
    state.blobs.delete(id);
    await state.deps.store.deleteItem(id);
    await state.deps.store.deleteResult(id);
    this.pump();
    state.emit();
  }

  async clearFinished(): Promise<void> {
    for (const item of this.state.sorted()) {
      if (FINISHED.includes(item.status)) await this.remove(item.id);
    }
  }

  async wipe(): Promise<void> {
    const { state } = this;
    for (const c of state.inFlight.values()) c.abort();
    for (const item of [...state.items.values()]) {
      await state.deps.store.deleteItem(item.id);
      await state.deps.store.deleteResult(item.id);
    }
    state.inFlight.clear();
    state.items.clear();
    state.blobs.clear();
    state.emit();
  }

  /** The browser's online/offline events: offline pauses at once, online probes at once. */
  setOnline(online: boolean): void {
    this.watch.setOnline(online);
  }

  snapshot(): QueueSnapshot {
    const { state } = this;
    return { items: state.sorted().map((i) => ({ ...i })), paused: this.watch.paused, inFlight: state.inFlight.size };
  }

  /** Settles when nothing is in flight (tests). */
  get activeCount(): number {
    return this.state.inFlight.size;
  }

  /** Whether the service may hold a job under the item's current key (in flight, or kept for a resend). */
  private mayBeOnServer(item: QueueItem): boolean {
    if (this.device.isRunning(item.id)) return false;
    // Items persisted without keySent: the status still tells.
    return item.keySent === true || item.status === 'processing' || item.status === 'interrupted';
  }

  /** Fire and forget: the UI never waits for it, and if it fails (offline) the grace ends the job. */
  private stopOnServer(item: QueueItem): void {
    const { auth, deps } = this.state;
    if (!auth || !deps.cancelOnServer) return;
    try {
      void deps.cancelOnServer(item.idempotencyKey, auth).catch(() => {});
    } catch {
      // same as a failed request
    }
  }

  private hasInterrupted(): boolean {
    return [...this.state.items.values()].some((i) => i.status === 'interrupted');
  }

  /** Fills the device's slot, then the server's window, in queue order. */
  private pump(): void {
    const { state } = this;
    this.device.startNext();
    if (this.watch.paused || this.watch.checkingResend || !state.auth?.token) return;
    const { start, wakeAt } = planServerWindow(state.sorted(), {
      running: state.inFlight,
      max: state.max,
      now: state.now(),
      deviceTakesOnDevice: this.device.takesOnDeviceItems,
    });
    for (const item of start) void this.server.start(item);
    if (wakeAt < Infinity) this.wake.wakeAt(wakeAt);
  }
}
