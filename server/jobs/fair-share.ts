// The fairness rule of the job queues, apart from any queue so every implementation keeps the same
// one (the in-process runner here; a distributed queue in team mode):
// - classes: interactive work (a person watches its stream: analysis, candidates, regenerate,
//   video prompts) goes before batch work (videos, workshop items), and a lane of two or more
//   slots keeps `interactiveReserve` of them for interactive work, so an interactive job never
//   waits behind batch work for a slot;
// - round-robin across users: among the jobs that may start, the user holding the fewest slots of
//   the lane goes first, then the user served least recently, then the oldest job;
// - a per-user slot cap: while another user's job waits for a lane, one user holds at most an
//   even share of its slots (rounded up); when nobody else waits, one user may use them all;
// - a per-user cap on waiting jobs of a class: past it a new job is refused (429, Retry-After)
//   before any row is made for it.
// Everything here is pure: the queue passes in what runs and what waits.
import { AppError } from '../http/app-error.js';

export type JobClass = 'interactive' | 'batch';

export interface FairShareRules {
  /** Slots of a lane of two or more that batch jobs may not take. */
  interactiveReserve: number;
  /** Waiting (queued) jobs of one class one user may have; more are refused. */
  maxWaitingPerUser: number;
  /** What a refusal tells the client to wait. */
  retryAfterSeconds: number;
}

export const DEFAULT_FAIR_SHARE: FairShareRules = {
  interactiveReserve: 1,
  maxWaitingPerUser: 50,
  retryAfterSeconds: 30,
};

/** A job that holds a slot of a lane. `user` is the queue's key of its user (jobs with none share one). */
export interface SlotHolder {
  user: string;
  lane: string;
  jobClass: JobClass;
}

/** A job that is due and may be started. */
export interface Candidate extends SlotHolder {
  id: number;
  /** When it became due (ISO text; compared as text). */
  readyAt: string;
}

export interface QueueState {
  /** Jobs running now (in the slots this queue manages). */
  running: readonly SlotHolder[];
  /** Slots of a lane. */
  capacity: (lane: string) => number;
  /** Order of each user's latest start, higher is more recent; a user not in it was never served. */
  lastServed: ReadonlyMap<string, number>;
}

/** The key a queue uses for a job's user. */
export function userKey(userId: number | null | undefined): string {
  return userId == null ? 'none' : `u${userId}`;
}

/** Slots of a lane batch jobs may hold at most (never none: a one-slot lane is shared). */
export function batchSlots(capacity: number, rules: Pick<FairShareRules, 'interactiveReserve'>): number {
  return Math.max(1, capacity - Math.max(0, rules.interactiveReserve));
}

/** The job to start next, or undefined when none may start now. Call again after starting it. */
export function pickNext<C extends Candidate>(
  candidates: readonly C[],
  state: QueueState,
  rules: Pick<FairShareRules, 'interactiveReserve'>,
): C | undefined {
  const lanes = new Map<string, { total: number; batch: number; byUser: Map<string, number> }>();
  const lane = (name: string) => {
    let l = lanes.get(name);
    if (!l) lanes.set(name, (l = { total: 0, batch: 0, byUser: new Map() }));
    return l;
  };
  for (const r of state.running) {
    const l = lane(r.lane);
    l.total++;
    if (r.jobClass === 'batch') l.batch++;
    l.byUser.set(r.user, (l.byUser.get(r.user) ?? 0) + 1);
  }
  // What the lane's limits allow, before the per-user cap.
  const open = candidates.filter((c) => {
    const l = lane(c.lane);
    const capacity = state.capacity(c.lane);
    if (l.total >= capacity) return false;
    return c.jobClass === 'interactive' || l.batch < batchSlots(capacity, rules);
  });
  const allowed = open.filter((c) => {
    const l = lane(c.lane);
    const others = open.some((o) => o.lane === c.lane && o.user !== c.user);
    if (!others) return true;
    const users = new Set([...l.byUser.keys(), ...open.filter((o) => o.lane === c.lane).map((o) => o.user)]);
    const share = Math.ceil(state.capacity(c.lane) / users.size);
    return (l.byUser.get(c.user) ?? 0) < share;
  });
  let best: C | undefined;
  for (const c of allowed) if (!best || before(c, best, state, lane)) best = c;
  return best;
}

function before(
  a: Candidate,
  b: Candidate,
  state: QueueState,
  lane: (name: string) => { byUser: Map<string, number> },
): boolean {
  if (a.jobClass !== b.jobClass) return a.jobClass === 'interactive';
  const held = (c: Candidate) => lane(c.lane).byUser.get(c.user) ?? 0;
  if (held(a) !== held(b)) return held(a) < held(b);
  const served = (c: Candidate) => state.lastServed.get(c.user) ?? -Infinity;
  if (served(a) !== served(b)) return served(a) < served(b);
  if (a.readyAt !== b.readyAt) return a.readyAt < b.readyAt;
  return a.id < b.id;
}

/** Too many of one user's jobs wait: 429 with Retry-After, in the user's language. */
export class QueueFullError extends AppError {
  constructor(
    readonly limit: number,
    retryAfterSeconds: number,
  ) {
    super(429, 'queue_full', { vars: { limit }, retryAfterSeconds });
  }
}

/** The refusal for adding `adding` jobs to a user who has `waiting` of that class, or undefined. */
export function waitingCapRefusal(
  waiting: number,
  adding: number,
  rules: Pick<FairShareRules, 'maxWaitingPerUser' | 'retryAfterSeconds'>,
): QueueFullError | undefined {
  if (waiting + adding <= rules.maxWaitingPerUser) return undefined;
  return new QueueFullError(rules.maxWaitingPerUser, rules.retryAfterSeconds);
}
