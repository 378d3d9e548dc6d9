// Whether the queue may use the upscale service. A lost connection, a full service or a refused
// token pauses the queue; a probe with growing delays lifts the pause once the service answers
// again. The probe also says whether the server replays a resend under the same Idempotency-Key:
// only then do interrupted requests go back to the window by themselves. Time spent without the
// service is not spent from the items' retry budgets.
import { pauseStreak } from '../../lib/retry/retry-policy';
import type { ProbeResult } from './engine-deps';
import type { PauseReason, QueueAuth } from './protocol';
import type { QueueState } from './queue-state';

/** Waits between probes while the service is away: soon at first, then every ten seconds. */
export const PROBE_DELAYS_MS = [1000, 2000, 4000, 8000, 10_000];

/** The wait before the next probe after `failedProbes` unanswered ones. */
export function probeDelay(failedProbes: number): number {
  return PROBE_DELAYS_MS[Math.min(failedProbes, PROBE_DELAYS_MS.length - 1)]!;
}

export interface ServiceWatchHooks {
  /** Fills the window again. */
  pump(): void;
  /** The service went away: this device takes the waiting items it can. */
  deviceTakesOver(): void;
  /** The service answers again: the device may stand in next time even if it could not this time. */
  serviceBack(): void;
}

export class ServiceWatch {
  private reason: PauseReason = null;
  private probeAttempt = 0;
  private cancelProbe: (() => void) | null = null;
  /** A reachability check started by a failed item; later failures join it. */
  private checking: Promise<void> | null = null;
  /** When the queue lost the service: time without any chance to try is not spent from budgets. */
  private offlineSince: number | null = null;
  private askingResend = false;

  constructor(
    private readonly state: QueueState,
    private readonly hooks: ServiceWatchHooks,
  ) {}

  get paused(): PauseReason {
    return this.reason;
  }

  /** While the server is asked whether resends are safe, nothing starts. */
  get checkingResend(): boolean {
    return this.askingResend;
  }

  /** A fresh token lifts the pause a refused one set. */
  tokenRenewed(): void {
    if (this.reason === 'auth') this.reason = null;
  }

  /** The browser's online/offline events: offline pauses at once, online probes at once. */
  setOnline(online: boolean): void {
    if (!online) {
      this.pause('offline');
    } else if (this.reason === 'offline' || this.reason === 'busy') {
      this.probeAttempt = 0;
      this.scheduleProbe(0);
    }
  }

  pause(reason: Exclude<PauseReason, null>, delayMs?: number): void {
    if (this.reason === 'auth' && reason !== 'auth') return;
    const wasPaused = this.reason !== null;
    if (reason === 'offline' && this.offlineSince === null) this.offlineSince = this.state.now();
    this.reason = reason;
    if (reason === 'offline') this.hooks.deviceTakesOver();
    this.state.emit();
    if (reason === 'auth') return; // lifted by a new token
    if (!wasPaused || delayMs !== undefined) {
      this.probeAttempt = 0;
      this.scheduleProbe(delayMs ?? probeDelay(0));
    }
  }

  /** Asks the server whether a resend is safe; if so, interrupted items go back to the window with their kept key. */
  async resendInterruptedIfSafe(): Promise<void> {
    const auth = this.state.auth;
    if (!auth) return;
    this.askingResend = true;
    let probe: ProbeResult;
    try {
      probe = await this.safeProbe(auth);
    } finally {
      this.askingResend = false;
    }
    if (this.state.auth?.owner !== auth.owner) return; // another user signed in meanwhile
    if (!probe.reachable) {
      // The probe loop comes back here once the server answers.
      this.pause('offline');
      return;
    }
    await this.requeueInterrupted(probe.resendSafe);
  }

  /** Is the service there at all? Unreachable pauses the queue; reachable lets interrupted items back in. */
  checkReachable(): Promise<void> {
    const auth = this.state.auth;
    if (!auth) return Promise.resolve();
    this.checking ??= (async () => {
      try {
        const probe = await this.safeProbe(auth);
        if (this.state.auth?.owner !== auth.owner) return;
        if (!probe.reachable) this.pause('offline');
        else if (this.reason !== 'offline') await this.requeueInterrupted(probe.resendSafe);
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  private async requeueInterrupted(resendSafe: boolean): Promise<void> {
    // A server that might run it twice: the user decides.
    for (const item of resendSafe ? this.state.sorted() : []) {
      if (item.status !== 'interrupted') continue;
      // Same key: the server replays or joins the first attempt instead of running the model again.
      // It keeps its retry delay: an answering service is no proof that its upload will pass now.
      await this.state.update(item, { status: 'waiting', progress: 0, bytesSent: false });
    }
    this.hooks.pump();
  }

  private async safeProbe(auth: QueueAuth): Promise<ProbeResult> {
    try {
      return await this.state.deps.probe(auth);
    } catch {
      return { reachable: false, resendSafe: false };
    }
  }

  private scheduleProbe(ms: number): void {
    this.cancelProbe?.();
    this.cancelProbe = this.state.setTimer(() => void this.runProbe(), ms);
  }

  private async runProbe(): Promise<void> {
    this.cancelProbe = null;
    const auth = this.state.auth;
    if (!auth || this.reason === null || this.reason === 'auth') return;
    const probe = await this.safeProbe(auth);
    if (probe.reachable) {
      this.reason = null;
      this.hooks.serviceBack();
      this.probeAttempt = 0;
      await this.creditOfflineTime();
      await this.requeueInterrupted(probe.resendSafe);
      this.hooks.pump();
      this.state.emit();
      return;
    }
    this.probeAttempt += 1;
    this.scheduleProbe(probeDelay(this.probeAttempt));
  }

  /** The time without the service is not time spent trying: every retry budget gets it back. */
  private async creditOfflineTime(): Promise<void> {
    if (this.offlineSince === null) return;
    const offlineMs = this.state.now() - this.offlineSince;
    this.offlineSince = null;
    for (const item of this.state.sorted()) {
      if (item.retry) await this.state.update(item, { retry: pauseStreak(item.retry, offlineMs) });
    }
  }
}
