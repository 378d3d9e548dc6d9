// Upscale work through the job queue (team mode), the API replica's part of UpscaleWork. An upload
// that passed the usual admission (type, header, pixels, shape, upload budget) is stored where every
// worker reads it (InputStore), and its row and job are written in one transaction; a worker on any
// host runs it (team-upscale-jobs.ts) and the replica holding the request answers when the row says
// it is done (told over the progress bus, with a slow poll of the row for a notification that was
// missed). A batch's images are queued at once, each its own job (one transaction for the batch),
// so the team's workers share it; pg-boss's priorities (fair-priority.ts) keep batch images behind
// single upscales and take users in turn. Its results arrive as workers finish them.
//
// Rules of this mode:
// - Idempotency-Key: a keyed row is guarded by the unique (user, key) index, so a resend at any
//   replica finds the first job: it waits for it while it is unfinished (attaches) and is answered
//   from the replay record once it is done. A finished row's key is freed only when there is no
//   replay to answer (cancelled, failed, expired), so the resend runs afresh as it does in process.
// - A client that goes away cancels its job: at once without a key, after the resend grace with one
//   (when no request on any replica waits for it by then).
// - Queue full (503, Retry-After): a new request is refused when the requests waiting team-wide (a
//   single upscale, or a whole batch, counts once) reach UPSCALE_MAX_QUEUE per live worker plus the
//   engine slots that are idle now. Retry-After spreads the waiting images and what is left of the
//   running ones, at the median of the team's recent durations, over the live workers' slots.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { UpscaleError } from '../../upscale/errors.js';
import type { DurableReplays } from './durable-replays.js';
import { admitImage } from './image-admission.js';
import { IdempotentResults, REPLAY_GRACE_MS, type CancelOutcome, type IdempotentAnswer } from './idempotent-results.js';
import type { InputStore } from './input-store.js';
import { assertListedModel, toModelViews, type ModelView } from './model-catalogue.js';
import { ACTIVE_STATUSES, type QueueLoad, type StoredFailure, type UpscaleJobRow, type UpscaleJobTable } from './team-jobs.js';
import { UPSCALE_BATCH_KIND, UPSCALE_KIND, upscaleTopic, type UpscaleJobEvent } from './team-upscale-jobs.js';
import { fileTooLarge, UpscaleHttpError } from './upscale-http-error.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UpscaleOutcome } from './upscale-service.js';
import type { BatchUpscale, SingleUpscale, UpscaleWork } from './upscale-work.js';
import { queueFull, retryAfterSeconds } from './wait-estimate.js';

export interface TeamUpscaleOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  table: UpscaleJobTable;
  inputs: InputStore;
  replays: DurableReplays;
  /** UPSCALE_MAX_QUEUE: requests that may wait per live worker. */
  maxQueuePerWorker: number;
  maxPixels: number;
  now: () => Date;
  log: FastifyBaseLogger;
  graceMs?: number;
  /** How often a waiting request reads its row besides the notifications. */
  pollMs?: number;
}

interface WaitHooks {
  signal: AbortSignal;
  onProgress?: (fraction: number) => void;
}

type Kind = typeof UPSCALE_KIND | typeof UPSCALE_BATCH_KIND;

interface Submission {
  kind: Kind;
  key: string | null;
  fingerprint: string | null;
  batchId: string | null;
}

const cancelled = () => new UpscaleError('cancelled', 'upscale cancelled');
const failureError = (f: StoredFailure) => new UpscaleHttpError(f.status, f.code, f.vars);
/** Resends that find a key changing under them try again this often at most. */
const KEY_ATTEMPTS = 5;

export class TeamUpscales implements UpscaleWork {
  private lastRetryAfter = 1;

  constructor(private readonly o: TeamUpscaleOptions) {}

  async listModels(): Promise<ModelView[]> {
    const models = await this.o.table.models();
    // No worker has reported its weights yet.
    if (models.length === 0) throw new UpscaleHttpError(503, 'models_unavailable');
    return toModelViews(models);
  }

  async assertModel(name: string): Promise<void> {
    assertListedModel(await this.listModels(), name);
  }

  /** Throws 503 queue_full when the team's queue has no place for one more request. */
  async assertCapacity(): Promise<void> {
    const load = await this.o.table.load();
    const idleSlots = Math.max(0, load.liveSlots - load.runningSince.length - load.waitingJobs);
    const limit = this.o.maxQueuePerWorker * Math.max(1, load.liveWorkers) + idleSlots;
    this.lastRetryAfter = this.retryAfterSeconds(load);
    if (load.waitingRequests >= limit) throw this.full();
  }

  /** The refusal with the latest estimate (also the upload budget's answer when it is full). */
  full(): UpscaleHttpError {
    return queueFull(this.lastRetryAfter);
  }

  /** Seconds until the team's work in hand is likely done, over the live workers' slots (wait-estimate.ts). */
  retryAfterSeconds(load: QueueLoad): number {
    return retryAfterSeconds({ ...load, slots: load.liveSlots, nowMs: this.o.now().getTime() });
  }

  /** Whether a request with this key would wait for the user's unfinished job (it needs no place). */
  async joinsJob(key: string | undefined, userId: number): Promise<boolean> {
    if (!IdempotentResults.honours(key)) return false;
    const row = await this.o.table.byKey(userId, key);
    return row !== undefined && ACTIVE_STATUSES.includes(row.status);
  }

  /** POST /upscale/single: the image is queued (or the first job of its key joined) and awaited. */
  async single({ file, params, userId, key, signal }: SingleUpscale): Promise<IdempotentAnswer> {
    await admitImage(file.data, this.o.maxPixels);
    const plain: Submission = { kind: UPSCALE_KIND, key: null, fingerprint: null, batchId: null };
    if (!IdempotentResults.honours(key)) {
      const [id] = await this.submit(userId, [file], params, plain);
      return { outcome: await this.wait(id!, { signal }, plain), replayed: false, keyed: false };
    }
    const fingerprint = IdempotentResults.fingerprint(userId, params, file.data);
    const keyed: Submission = { ...plain, key, fingerprint };
    let lookedAgain = false;
    for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
      const stored = await this.o.replays.get(userId, key).catch(() => undefined);
      if (stored && stored.fingerprint === fingerprint) return { outcome: stored.outcome, replayed: true, keyed: true };
      const row = await this.o.table.byKey(userId, key);
      if (row && ACTIVE_STATUSES.includes(row.status)) {
        if (row.fingerprint !== fingerprint) {
          // Another image under a key whose job still runs: a job of its own, as in process.
          const [id] = await this.submit(userId, [file], params, plain);
          return { outcome: await this.wait(id!, { signal }, plain), replayed: false, keyed: true };
        }
        if (await this.o.table.attach(row.id))
          return { outcome: await this.wait(row.id, { signal }, keyed), replayed: true, keyed: true };
        continue; // it finished meanwhile: its replay record (written first) is read again
      }
      if (row) {
        // Done a moment ago: its record was written before the row was; read it once more.
        if (row.status === 'completed' && row.fingerprint === fingerprint && !lookedAgain) {
          lookedAgain = true;
          continue;
        }
        // Nothing to replay (cancelled, failed, expired, another image): the key is free again.
        await this.o.table.releaseKey(row.id);
      }
      const [id] = await this.submit(userId, [file], params, keyed);
      if (id !== undefined) return { outcome: await this.wait(id, { signal }, keyed), replayed: false, keyed: true };
      // Another replica's request took the key between our look and our insert: join it.
    }
    throw new Error('upscale job kept changing under its Idempotency-Key');
  }

  /**
   * POST /upscale/batch: every image that passes the checks (those a single upscale makes before
   * anything is stored) is queued at once, then each is awaited; its input leaves memory once stored.
   */
  async runBatch({ userId, files, params, ctx, events, onItemDone }: BatchUpscale): Promise<void> {
    const { signal } = events;
    const admitted: number[] = [];
    for (const [index, file] of files.entries()) {
      try {
        if (file.tooLarge) throw fileTooLarge(ctx);
        await admitImage(file.data, this.o.maxPixels);
        admitted.push(index);
      } catch (error) {
        events.failed(index, error);
        onItemDone(file.data.length);
      }
    }
    let ids: number[] = [];
    if (admitted.length > 0 && !signal.aborted) {
      const batch: Submission = { kind: UPSCALE_BATCH_KIND, key: null, fingerprint: null, batchId: randomBytes(12).toString('base64url') };
      try {
        ids = (await this.submit(userId, admitted.map((i) => files[i]!), params, batch)).map((id) => id!);
      } catch (error) {
        for (const index of admitted) events.failed(index, error);
      }
      // Stored (or refused): the images are not kept in memory for the rest of the batch.
      for (const index of admitted) {
        onItemDone(files[index]!.data.length);
        files[index] = { ...files[index]!, data: Buffer.alloc(0) };
      }
    }
    await Promise.all(
      ids.map(async (id, n) => {
        const index = admitted[n]!;
        try {
          const r = await this.wait(id, { signal, onProgress: (fraction) => events.progress(index, fraction) }, {
            kind: UPSCALE_BATCH_KIND,
            key: null,
            fingerprint: null,
            batchId: null,
          });
          events.succeeded(index, r);
        } catch (error) {
          if (!signal.aborted) events.failed(index, error);
        }
      }),
    );
  }

  /** DELETE /upscale/jobs/:key: the owner's Cancel, on whichever replica it lands. */
  async cancelKey(key: string, userId: number): Promise<CancelOutcome> {
    if (!IdempotentResults.honours(key)) return 'unknown';
    let outcome: CancelOutcome = 'unknown';
    const row = await this.o.table.byKey(userId, key);
    if (row && ACTIVE_STATUSES.includes(row.status)) {
      if (await this.cancelJob(row.id, UPSCALE_KIND, false)) outcome = 'stopped';
    } else if (row) {
      await this.o.table.releaseKey(row.id);
      outcome = 'discarded';
    } else if (await this.o.table.othersActive(userId, key)) {
      outcome = 'not_owner';
    }
    const removed = await this.o.replays.remove(userId, key).catch(() => 0);
    return removed > 0 && outcome !== 'stopped' ? 'discarded' : outcome;
  }

  /** Stores the inputs, then writes their rows and jobs in one transaction; undefined for a key taken. */
  private async submit(
    userId: number,
    files: { filename: string; data: Buffer }[],
    params: UpscaleParams,
    s: Submission,
  ): Promise<(number | undefined)[]> {
    const refs: string[] = [];
    const forget = (which: string[]) => Promise.all(which.map((r) => this.o.inputs.remove(r).catch(() => undefined)));
    let ids: (number | undefined)[];
    try {
      for (const f of files) refs.push(await this.o.inputs.put(f.data));
      ids = await this.o.db.transaction().execute(async (trx) => {
        const out: (number | undefined)[] = [];
        for (const [i, f] of files.entries()) {
          const id = await this.o.table.insert(trx, {
            userId,
            key: s.key,
            fingerprint: s.fingerprint,
            batchId: s.batchId,
            inputRef: refs[i]!,
            filename: f.filename,
            params,
          });
          if (id !== undefined) await this.o.jobs.enqueue({ kind: s.kind, refId: id, userId }, { trx });
          out.push(id);
        }
        return out;
      });
    } catch (error) {
      await forget(refs);
      throw error;
    }
    await forget(refs.filter((_, i) => ids[i] === undefined));
    return ids;
  }

  /**
   * Waits for a job's end: its outcome, or its failure as the in-process path would throw it. The
   * client going away (hooks.signal) stops the wait and cancels the job by the rules above.
   */
  private wait(id: number, hooks: WaitHooks, s: Submission): Promise<UpscaleOutcome> {
    return new Promise<UpscaleOutcome>((resolve, reject) => {
      let done = false;
      let last = -1;
      const end = (settle: () => void) => {
        if (done) return;
        done = true;
        unsubscribe();
        clearInterval(poll);
        hooks.signal.removeEventListener('abort', onAbort);
        settle();
      };
      const fromRow = (row: UpscaleJobRow | undefined) => {
        if (!row) return end(() => reject(cancelled()));
        if (row.status === 'completed') return end(() => resolve(JSON.parse(row.outcome_json ?? 'null') as UpscaleOutcome));
        if (row.status === 'failed') return end(() => reject(failureError(JSON.parse(row.error_json ?? '{}') as StoredFailure)));
        if (row.status === 'cancelled') return end(() => reject(cancelled()));
      };
      const onEvent = (event: UpscaleJobEvent) => {
        if (event.type === 'progress') {
          if (!done && event.fraction > last) {
            last = event.fraction;
            hooks.onProgress?.(event.fraction);
          }
        } else if (event.type === 'done') end(() => resolve(event.outcome));
        else if (event.type === 'failed') end(() => reject(failureError(event.failure)));
        else end(() => reject(cancelled()));
      };
      const unsubscribe = this.o.jobs.onProgress(upscaleTopic(id), (e) => onEvent(e as UpscaleJobEvent));
      const check = () =>
        void this.o.table.get(id).then(
          (row) => {
            if (!row || !ACTIVE_STATUSES.includes(row.status)) fromRow(row);
          },
          () => undefined,
        );
      const poll = setInterval(check, this.o.pollMs ?? 2000);
      poll.unref();
      const onAbort = () =>
        end(() => {
          reject(cancelled());
          void this.clientGone(id, s).catch((error: unknown) => this.o.log.warn({ err: error, id }, 'could not cancel an upscale job'));
        });
      if (hooks.signal.aborted) return onAbort();
      hooks.signal.addEventListener('abort', onAbort, { once: true });
      // Subscribed first, then read: an end between the commit and the subscription is not missed.
      check();
    });
  }

  private async clientGone(id: number, s: Submission): Promise<void> {
    await this.o.table.detach(id);
    if (!s.key) {
      await this.cancelJob(id, s.kind, false);
      return;
    }
    // A keyed job outlives its last client for the grace, so a resend after a reload finds it.
    const timer = setTimeout(() => {
      void this.cancelJob(id, s.kind, true).catch((error: unknown) => this.o.log.warn({ err: error, id }, 'could not cancel an upscale job'));
    }, this.o.graceMs ?? REPLAY_GRACE_MS);
    timer.unref();
  }

  /** Marks the row cancelled (guarded) and stops its job wherever it waits or runs. */
  private async cancelJob(id: number, kind: Kind, onlyIdle: boolean): Promise<boolean> {
    if (!(await this.o.table.cancel(id, onlyIdle))) return false;
    this.o.jobs.publish(upscaleTopic(id), { type: 'cancelled' } satisfies UpscaleJobEvent);
    await this.o.jobs.cancel(kind, id);
    return true;
  }
}
