// Upscaling on this device, one item at a time (a tablet's memory holds one job): every item the
// designer sent "on this device", and any waiting item while the service cannot be reached — the
// latter only once the device has the model's graphs. Each result says it was made here.
import { deviceResult, waitsForService } from './attempt-outcome';
import { raisedProgress } from './item-transitions';
import type { QueueItem } from './protocol';
import type { QueueState } from './queue-state';
import type { LocalOutcome, LocalUpscaler } from './send-types';
import type { ServiceWatch } from './service-watch';
import { nextForDevice } from './window-plan';

export class DeviceLane {
  /** The item being upscaled here. */
  private runningId: string | null = null;
  /** A fallback is being prepared (are the graphs here?); nothing else starts on the device meanwhile. */
  private preparing = false;
  /** The device could not get the graphs while the service was away: it waits for the service. */
  private unavailable = false;

  constructor(
    private readonly state: QueueState,
    private readonly watch: ServiceWatch,
    private readonly pump: () => void,
  ) {}

  /** Items sent "on this device" are this lane's whenever the platform can upscale here. */
  get takesOnDeviceItems(): boolean {
    return Boolean(this.state.deps.local);
  }

  /** A request running here holds nothing on the service under its key. */
  isRunning(id: string): boolean {
    return this.runningId === id;
  }

  /** The service answers again: the next time it goes away, the device tries again to stand in. */
  serviceBack(): void {
    this.unavailable = false;
  }

  /** Starts the next item for this device: any waiting one while the service is unreachable. */
  startNext(): void {
    const local = this.state.deps.local;
    const auth = this.state.auth;
    if (!local || !auth?.token || this.runningId !== null || this.preparing || this.watch.checkingResend) return;
    const next = nextForDevice(this.state.sorted(), {
      running: this.state.inFlight,
      offline: this.watch.paused === 'offline' && !this.unavailable,
      now: this.state.now(),
    });
    if (!next) return;
    if (next.params.onDevice) {
      void this.run(next, local);
      return;
    }
    // A fallback starts only when the device has the model's graphs; otherwise the item keeps its
    // place and waits for the service.
    this.preparing = true;
    void local
      .ready(next.params.modelName, auth)
      .catch(() => false)
      .then((ready) => {
        this.preparing = false;
        if (this.state.auth?.owner !== auth.owner) return;
        if (!ready) this.unavailable = true;
        else if (next.status === 'waiting' && this.watch.paused === 'offline' && !this.state.inFlight.has(next.id))
          void this.run(next, local);
        this.pump();
      });
  }

  private async run(item: QueueItem, local: LocalUpscaler): Promise<void> {
    const { state } = this;
    const auth = state.auth;
    if (!auth) return;
    const controller = new AbortController();
    state.inFlight.set(item.id, controller);
    this.runningId = item.id;
    const startedAt = state.now();
    let outcome: LocalOutcome;
    try {
      await state.update(item, {
        status: 'processing',
        progress: 0,
        attempts: item.attempts + 1,
        startedAt,
        runningLocally: true,
      });
      const blob = state.blobs.get(item.id) ?? (await state.deps.store.getSourceBlob(item.fileId));
      if (!blob) outcome = { kind: 'error', code: 'source-missing', message: 'source-missing' };
      else {
        state.blobs.set(item.id, blob);
        outcome = await local.run(
          { blob, fileName: item.fileName, params: item.params, auth },
          (p) => {
            if (item.status !== 'processing' || state.inFlight.get(item.id) !== controller) return;
            item.progress = raisedProgress(item.progress, p);
            state.emit();
          },
          controller.signal,
        );
      }
    } catch (e) {
      outcome = { kind: 'error', code: 'device-error', message: e instanceof Error ? e.message : String(e) };
    } finally {
      if (this.runningId === item.id) this.runningId = null;
    }
    // A newer owner or a removal replaced this run: its outcome no longer matters.
    if (state.inFlight.get(item.id) !== controller) {
      this.pump();
      return;
    }
    state.inFlight.delete(item.id);
    if (item.runningLocally) await state.update(item, { runningLocally: undefined });
    if (item.status === 'processing' && state.items.has(item.id)) await this.settle(item, outcome, startedAt);
    this.pump();
    state.emit();
  }

  private async settle(item: QueueItem, outcome: LocalOutcome, startedAt: number): Promise<void> {
    const { state } = this;
    if (outcome.kind === 'ok') {
      await state.deps.store.putResult(item.id, item.userKey, outcome.blob);
      await state.update(item, {
        status: 'completed',
        progress: 100,
        error: undefined,
        retry: undefined,
        resultStored: true,
        result: deviceResult(item, outcome, startedAt, state.now()),
      });
    } else if (outcome.kind === 'aborted') {
      await state.update(item, { status: 'cancelled', progress: 0 });
    } else if (waitsForService(outcome, item)) {
      this.unavailable = true;
      await state.update(item, { status: 'waiting', progress: 0 });
    } else {
      await state.update(item, {
        status: 'failed',
        progress: 0,
        error: { code: outcome.code, status: 0, message: outcome.message },
      });
    }
  }
}
