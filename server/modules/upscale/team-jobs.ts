// The rows of upscaling through the job queue (team mode): one per image an API replica accepted
// (its input, parameters, state and answer; written in the same transaction as its job) and one
// per worker process that runs upscales (heartbeat, engine slots, model list). Every step that
// more than one process may take at once is one guarded statement: the insert of a keyed job (the
// unique (user, key) index), attaching to a job, starting, finishing and cancelling one.
import { sql, type Generated, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EngineModel } from './upscale-engine-port.js';
import type { UpscaleFailureCode } from './upscale-http-error.js';
import type { UpscaleOutcome } from './upscale-service.js';

export type UpscaleJobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const ACTIVE_STATUSES: readonly UpscaleJobStatus[] = ['queued', 'running'];

interface UpscaleJobsTable {
  id: Generated<number>;
  user_id: number;
  idem_key: string | null;
  fingerprint: string | null;
  batch_id: string | null;
  status: UpscaleJobStatus;
  input_ref: string;
  filename: string;
  params_json: string;
  outcome_json: string | null;
  error_json: string | null;
  clients: number;
  worker_id: string | null;
  duration_ms: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Every process that runs jobs (migration 0007); slots and models are its upscale engines'. */
interface WorkersTable {
  worker_id: string;
  slots: number;
  models_json: string;
  seen_at: string;
}

// Type aliases, not interfaces: withTables needs index-compatible record types.
type TeamTables = { upscale_jobs: UpscaleJobsTable; workers: WorkersTable };

export type UpscaleJobRow = Selectable<UpscaleJobsTable>;

/** How a job that did not succeed ended, enough to answer exactly what the in-process path answers. */
export interface StoredFailure {
  status: number;
  code: UpscaleFailureCode;
  vars: Record<string, string | number>;
}

export interface NewUpscaleJob {
  userId: number;
  key: string | null;
  fingerprint: string | null;
  batchId: string | null;
  inputRef: string;
  filename: string;
  params: unknown;
}

/** What the queue-full rule and its Retry-After estimate read. */
export interface QueueLoad {
  /** Requests with an image still waiting: a single upscale, or a whole batch, counts once. */
  waitingRequests: number;
  /** Images waiting. */
  waitingJobs: number;
  /** When each running image started (ms since the epoch). */
  runningSince: number[];
  /** Durations of the last images upscaled, anywhere in the team (newest first). */
  recentDurationsMs: number[];
  /** Worker processes whose heartbeat is recent. */
  liveWorkers: number;
  /** Their engine slots together. */
  liveSlots: number;
}

/** Finished durations the estimate looks at. */
const SAMPLES = 9;

const finished = (s: UpscaleJobStatus) => !ACTIVE_STATUSES.includes(s);

export class UpscaleJobTable {
  private readonly db: Kysely<Database & TeamTables>;

  constructor(
    db: Kysely<Database>,
    private readonly now: () => Date,
    /** A worker whose heartbeat is older than this counts as gone (the job engine's WORKER_STALE_SECONDS). */
    private readonly workerStaleMs: number,
  ) {
    this.db = db.withTables<TeamTables>();
  }

  private iso(): string {
    return this.now().toISOString();
  }

  /**
   * Writes a job's row in `trx` (the transaction its job is enqueued in). A keyed row is one
   * guarded statement: when the user already has a row under that key, nothing is written and
   * undefined is answered (the caller looks at that row instead).
   */
  async insert(trx: Transaction<Database>, job: NewUpscaleJob): Promise<number | undefined> {
    const row = await trx
      .withTables<TeamTables>()
      .insertInto('upscale_jobs')
      .values({
        user_id: job.userId,
        idem_key: job.key,
        fingerprint: job.fingerprint,
        batch_id: job.batchId,
        status: 'queued',
        input_ref: job.inputRef,
        filename: job.filename,
        params_json: JSON.stringify(job.params),
        clients: 1,
        created_at: this.iso(),
      })
      .onConflict((oc) => oc.columns(['user_id', 'idem_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async get(id: number): Promise<UpscaleJobRow | undefined> {
    return this.db.selectFrom('upscale_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async byKey(userId: number, key: string): Promise<UpscaleJobRow | undefined> {
    return this.db
      .selectFrom('upscale_jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idem_key', '=', key)
      .executeTakeFirst();
  }

  /** Unfinished rows of other users under this key (a cancel of someone else's job is refused). */
  async othersActive(userId: number, key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('upscale_jobs')
      .select('id')
      .where('user_id', '<>', userId)
      .where('idem_key', '=', key)
      .where('status', 'in', ACTIVE_STATUSES)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Frees a finished row's key so a new job may take it; false when the row is not finished. */
  async releaseKey(id: number): Promise<boolean> {
    const r = await this.db
      .updateTable('upscale_jobs')
      .set({ idem_key: null })
      .where('id', '=', id)
      .where('status', 'not in', ACTIVE_STATUSES)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** One more request waits for this job; false when it has finished meanwhile. */
  async attach(id: number): Promise<boolean> {
    const r = await this.db
      .updateTable('upscale_jobs')
      .set((eb) => ({ clients: eb('clients', '+', 1) }))
      .where('id', '=', id)
      .where('status', 'in', ACTIVE_STATUSES)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** A request stopped waiting (its client went away). */
  async detach(id: number): Promise<void> {
    await this.db
      .updateTable('upscale_jobs')
      .set({ clients: sql<number>`greatest(clients - 1, 0)` })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Marks an unfinished job cancelled; with `onlyIdle`, only while no request waits for it (the
   * grace of a keyed job ran out and nobody came back). True when this call cancelled it.
   */
  async cancel(id: number, onlyIdle = false): Promise<boolean> {
    let q = this.db
      .updateTable('upscale_jobs')
      .set({ status: 'cancelled', finished_at: this.iso() })
      .where('id', '=', id)
      .where('status', 'in', ACTIVE_STATUSES);
    if (onlyIdle) q = q.where('clients', '<=', 0);
    return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
  }

  /** A worker takes the job (again, after a worker that died); false when it ended meanwhile. */
  async start(id: number, workerId: string): Promise<boolean> {
    const r = await this.db
      .updateTable('upscale_jobs')
      .set({ status: 'running', started_at: this.iso(), worker_id: workerId })
      .where('id', '=', id)
      .where('status', 'in', ACTIVE_STATUSES)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * The worker that started the job records its answer; false when the job ended meanwhile or
   * another worker has taken it since (this one was thought dead and its result is discarded).
   */
  async complete(id: number, outcome: UpscaleOutcome, durationMs: number, workerId: string): Promise<boolean> {
    const r = await this.db
      .updateTable('upscale_jobs')
      .set({ status: 'completed', outcome_json: JSON.stringify(outcome), duration_ms: Math.round(durationMs), finished_at: this.iso() })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('worker_id', '=', workerId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Marks an unfinished job failed; with `workerId`, only while that worker still runs it. */
  async fail(id: number, failure: StoredFailure, workerId?: string): Promise<boolean> {
    let q = this.db
      .updateTable('upscale_jobs')
      .set({ status: 'failed', error_json: JSON.stringify(failure), finished_at: this.iso() })
      .where('id', '=', id)
      .where('status', 'in', ACTIVE_STATUSES);
    if (workerId !== undefined) q = q.where('worker_id', '=', workerId);
    return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
  }

  async load(): Promise<QueueLoad> {
    const liveSince = new Date(this.now().getTime() - this.workerStaleMs).toISOString();
    const [waiting, running, recent, workers] = await Promise.all([
      this.db
        .selectFrom('upscale_jobs')
        .select([
          sql<string>`count(distinct coalesce(batch_id, cast(id as text)))`.as('requests'),
          sql<string>`count(*)`.as('jobs'),
        ])
        .where('status', '=', 'queued')
        .executeTakeFirstOrThrow(),
      this.db.selectFrom('upscale_jobs').select('started_at').where('status', '=', 'running').execute(),
      this.db
        .selectFrom('upscale_jobs')
        .select('duration_ms')
        .where('status', '=', 'completed')
        .where('duration_ms', 'is not', null)
        .orderBy('finished_at', 'desc')
        .limit(SAMPLES)
        .execute(),
      this.db
        .selectFrom('workers')
        .select([sql<string>`count(*)`.as('n'), sql<string>`coalesce(sum(slots), 0)`.as('slots')])
        .where('seen_at', '>', liveSince)
        // Processes that run jobs but no upscale engines (or no longer) are not upscale workers.
        .where('slots', '>', 0)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      waitingRequests: Number(waiting.requests),
      waitingJobs: Number(waiting.jobs),
      runningSince: running.map((r) => Date.parse(r.started_at ?? '')).filter((t) => Number.isFinite(t)),
      recentDurationsMs: recent.map((r) => Number(r.duration_ms)),
      liveWorkers: Number(workers.n),
      liveSlots: Number(workers.slots),
    };
  }

  /** A worker's heartbeat: it is alive, has `slots` engines and these models. */
  async heartbeat(workerId: string, slots: number, models: EngineModel[]): Promise<void> {
    const values = { slots, models_json: JSON.stringify(models), seen_at: this.iso() };
    await this.db
      .insertInto('workers')
      .values({ worker_id: workerId, ...values })
      .onConflict((oc) => oc.column('worker_id').doUpdateSet(values))
      .execute();
  }

  /**
   * A worker's engines close: it no longer counts as an upscale worker. Its row stays: the job
   * engine's heartbeat keeps it until the engine has handed its jobs back.
   */
  async retireWorker(workerId: string): Promise<void> {
    await this.db.updateTable('workers').set({ slots: 0, models_json: '[]' }).where('worker_id', '=', workerId).execute();
  }

  /** The models the workers have: those of the live ones, else the last any worker reported. */
  async models(): Promise<EngineModel[]> {
    const rows = await this.db.selectFrom('workers').select(['models_json', 'seen_at']).orderBy('seen_at', 'desc').execute();
    const liveSince = new Date(this.now().getTime() - this.workerStaleMs).toISOString();
    const lists = rows.map((r) => ({ live: r.seen_at > liveSince, models: JSON.parse(r.models_json) as EngineModel[] }));
    const live = lists.filter((l) => l.live && l.models.length > 0);
    const chosen = live.length > 0 ? live : lists.filter((l) => l.models.length > 0).slice(0, 1);
    const byName = new Map<string, EngineModel>();
    for (const l of chosen) for (const m of l.models) byName.set(m.name, m);
    return [...byName.values()];
  }

  /** Which of these inputs an unfinished job still needs. */
  async inputsInUse(refs: string[]): Promise<Set<string>> {
    if (refs.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('upscale_jobs')
      .select('input_ref')
      .where('input_ref', 'in', refs)
      .where('status', 'in', ACTIVE_STATUSES)
      .execute();
    return new Set(rows.map((r) => r.input_ref));
  }

  /** Removes rows finished before `before` and heartbeats of workers gone that long. */
  async sweep(before: Date): Promise<void> {
    const at = before.toISOString();
    await this.db.deleteFrom('upscale_jobs').where('status', 'not in', ACTIVE_STATUSES).where('finished_at', '<', at).execute();
    await this.db.deleteFrom('workers').where('seen_at', '<', at).execute();
  }
}

export { finished as isFinishedStatus };
