// Repeats of one single-upscale request (same user, same Idempotency-Key, same image and
// parameters) get the first answer instead of a second engine run: the PWA resends with the same
// key when a reload or a dropped connection cut the first attempt short. A repeat that arrives
// while the first attempt still runs joins it. A keyed job whose every client went away keeps
// running for a short grace, so the resend after a reload finds it instead of starting over; only
// when nobody came back is it cancelled. A failed or cancelled attempt is forgotten, so the repeat
// runs afresh. The designer's Cancel does not wait for the grace: cancel() stops the job at once
// and forgets it (even a finished one), so a Retry never gets the cancelled image back.
// Finished answers are also written to the database (DurableReplays) when one is given, so a
// resend that arrives after a crash or a restart, or at another replica, is still answered from
// the first run. The work writes the
// record through the `record` it is handed, before its result is published, so no crash leaves a
// published result without its record (which would make the resend run the model again).
import { createHash } from 'node:crypto';
import type { DurableReplays } from './durable-replays.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UpscaleOutcome } from './upscale-service.js';

const MAX_ENTRIES = 2_000;
const MAX_TTL_MS = 3_600_000;
/** How long a keyed job outlives its last client: a reload or a short network cut resends within it. */
export const REPLAY_GRACE_MS = 20_000;
const MAX_KEY_LENGTH = 200;

/** How long a finished answer is replayed: never a link that is about to expire. */
export function replayTtlMs(resultTtlSeconds: number): number {
  return Math.min(MAX_TTL_MS, (resultTtlSeconds * 1000) / 2);
}

interface Entry {
  key: string;
  /** The user who started the job: only they may cancel it. */
  owner: number;
  expiresAt: number;
  outcome: Promise<UpscaleOutcome>;
  settled: boolean;
  /** Requests currently waiting for this outcome. */
  clients: number;
  controller: AbortController;
  grace: NodeJS.Timeout | undefined;
  /** Stopped by its owner: a client that joined it must not start it again. */
  cancelled: boolean;
}

/**
 * What cancel() found: a job it stopped while waiting or running, a finished one whose kept result
 * it forgot, only other users' jobs under that key, or nothing.
 */
export type CancelOutcome = 'stopped' | 'discarded' | 'not_owner' | 'unknown';

export interface IdempotentAnswer {
  outcome: UpscaleOutcome;
  /** True when the answer came from an earlier attempt with the same key (no engine run of its own). */
  replayed: boolean;
  /** True when the key was honoured (present and well formed). */
  keyed: boolean;
}

export class IdempotentResults {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;

  constructor(
    resultTtlSeconds: number,
    private readonly now: () => Date,
    private readonly graceMs = REPLAY_GRACE_MS,
    private readonly durable?: DurableReplays,
  ) {
    this.ttlMs = replayTtlMs(resultTtlSeconds);
  }

  static fingerprint(userId: number, params: UpscaleParams, image: Buffer): string {
    return createHash('sha256')
      .update(`${userId}\n${JSON.stringify(params)}\n`)
      .update(image)
      .digest('base64url');
  }

  static honours(key: string | undefined): key is string {
    return typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH;
  }

  /**
   * Runs `work` once per (key, fingerprint). `clientSignal` aborts when this request's client goes
   * away; the work's own signal aborts only when every client is gone and the grace ran out.
   */
  async run(
    key: string | undefined,
    owner: number,
    fingerprint: string,
    clientSignal: AbortSignal,
    work: (signal: AbortSignal, record: (outcome: UpscaleOutcome) => Promise<void>) => Promise<UpscaleOutcome>,
  ): Promise<IdempotentAnswer> {
    if (!IdempotentResults.honours(key))
      return { outcome: await work(clientSignal, async () => undefined), replayed: false, keyed: false };
    this.dropExpired();
    const id = `${key}\n${fingerprint}`;
    let hit = this.entries.get(id);
    if (hit?.settled && this.durable) {
      // A finished answer is kept here only while its record is: the owner's Cancel may have
      // reached another replica, which could remove the record but not this memory.
      const stored = await this.durable.get(owner, key).catch(() => null); // unreachable: trust memory
      if (stored === undefined && this.entries.get(id) === hit) this.entries.delete(id);
      hit = this.entries.get(id);
    }
    if (!hit && this.durable) {
      // Not in memory: perhaps answered before this process started (a restart after a crash), or
      // by another replica on the same database.
      const stored = await this.durable.get(owner, key).catch(() => undefined);
      if (stored && stored.fingerprint === fingerprint) return { outcome: stored.outcome, replayed: true, keyed: true };
      hit = this.entries.get(id); // a request with the same key may have started it meanwhile
    }
    const nowMs = this.now().getTime();
    if (hit) {
      try {
        return { outcome: await this.follow(hit, clientSignal), replayed: true, keyed: true };
      } catch (error) {
        // The first attempt failed or its client went away (it is forgotten by then): run again
        // below. A job its owner cancelled stays cancelled.
        if (hit.cancelled) throw error;
        if (clientSignal.aborted) throw new Error('client gone', { cause: error });
      }
    }
    const controller = new AbortController();
    let recorded = false;
    const record = async (outcome: UpscaleOutcome): Promise<void> => {
      recorded = true;
      // A record that cannot be written costs a second run after a crash, not this answer.
      await this.durable
        ?.put(owner, key, { fingerprint, outcome, expiresAt: nowMs + this.ttlMs })
        .catch(() => undefined);
    };
    const entry: Entry = {
      key,
      owner,
      expiresAt: nowMs + this.ttlMs,
      outcome: Promise.resolve()
        .then(() => work(controller.signal, record))
        .then(async (outcome) => {
          // Work that did not record its answer: written now, before the reply goes out.
          if (!recorded) await record(outcome);
          return outcome;
        }),
      settled: false,
      clients: 0,
      controller,
      grace: undefined,
      cancelled: false,
    };
    if (this.entries.size >= MAX_ENTRIES) this.evictOne();
    this.entries.set(id, entry);
    entry.outcome.then(
      () => {
        entry.settled = true;
        clearTimeout(entry.grace);
      },
      () => {
        entry.settled = true;
        clearTimeout(entry.grace);
        if (this.entries.get(id) === entry) this.entries.delete(id);
      },
    );
    return { outcome: await this.follow(entry, clientSignal), replayed: false, keyed: true };
  }

  /**
   * The owner's Cancel: stops their jobs under `key` now (a waiting one leaves the queue, a running
   * one stops between tiles) instead of after the grace, and forgets them, finished ones included,
   * with the stored record (one this process never held counts as a finished one it forgot).
   */
  async cancel(key: string, owner: number): Promise<CancelOutcome> {
    if (!IdempotentResults.honours(key)) return 'unknown';
    const outcome = this.cancelHere(key, owner);
    // Awaited, so the record is gone before the reply and a Retry runs afresh on any replica.
    const removed = await (this.durable?.remove(owner, key) ?? Promise.resolve(0)).catch(
      () => 0, // a record that cannot be removed expires with its link
    );
    return removed > 0 && outcome !== 'stopped' ? 'discarded' : outcome;
  }

  /** The in-memory part of cancel(), done before anything is awaited. */
  private cancelHere(key: string, owner: number): CancelOutcome {
    this.dropExpired();
    let outcome: CancelOutcome = 'unknown';
    for (const [id, e] of this.entries) {
      if (e.key !== key) continue;
      if (e.owner !== owner) {
        if (outcome === 'unknown') outcome = 'not_owner';
        continue;
      }
      this.entries.delete(id);
      if (e.settled) {
        if (outcome !== 'stopped') outcome = 'discarded';
        continue;
      }
      e.cancelled = true;
      clearTimeout(e.grace);
      e.controller.abort();
      outcome = 'stopped';
    }
    return outcome;
  }

  /** Whether a request with this key would join or replay a job of this owner's (given the same image). */
  has(key: string | undefined, owner: number): boolean {
    if (!IdempotentResults.honours(key)) return false;
    this.dropExpired();
    for (const e of this.entries.values()) if (e.key === key && e.owner === owner) return true;
    return false;
  }

  private dropExpired(): void {
    const nowMs = this.now().getTime();
    for (const [k, e] of this.entries) if (e.settled && e.expiresAt <= nowMs) this.entries.delete(k);
  }

  /** Waits for an entry's outcome on behalf of one client, counting it while it stays connected. */
  private follow(entry: Entry, clientSignal: AbortSignal): Promise<UpscaleOutcome> {
    if (entry.settled || clientSignal.aborted) {
      if (!entry.settled) this.release(entry);
      return entry.outcome;
    }
    entry.clients += 1;
    clearTimeout(entry.grace);
    entry.grace = undefined;
    const onGone = () => {
      entry.clients -= 1;
      this.release(entry);
    };
    clientSignal.addEventListener('abort', onGone, { once: true });
    return entry.outcome.finally(() => clientSignal.removeEventListener('abort', onGone));
  }

  /** With nobody left waiting, the job gets a grace period for a resend, then is cancelled. */
  private release(entry: Entry): void {
    if (entry.settled || entry.clients > 0 || entry.grace) return;
    entry.grace = setTimeout(() => entry.controller.abort(), this.graceMs);
    entry.grace.unref();
  }

  private evictOne(): void {
    for (const [k, e] of this.entries) {
      if (e.settled) {
        this.entries.delete(k);
        return;
      }
    }
  }
}
