// The fairness rule of the job runner, mapped onto pg-boss: its workers take the waiting job of
// highest priority first (then the oldest), so the order is set when a job is written.
//
//   priority = CLASS_BAND[class] - min(k, BAND - 1)
//
// where k is how many jobs of the same user and class already wait in that lane's queue. A user's
// first waiting job is 0 in its band, the next -1, and so on: user B's first job goes before the
// second job of user A's backlog (round-robin by rank), and an interactive job is in a band above
// every batch job. A user may have at most `maxWaitingPerUser` jobs waiting across all lanes
// (beyond it the enqueue is refused with 429); a job that continues a running one (the candidates
// after an analysis) is not refused, or the work already started would be left half-done.
// Pure functions, so the rule is the same wherever it runs and can be unified with fair-share.ts.

export type JobClass = 'interactive' | 'batch';

/** Job kinds a person waits on in front of the screen; everything else is batch work. */
const INTERACTIVE_KINDS = new Set(['analysis', 'candidates', 'regenerate', 'video-prompts']);
/** Kinds enqueued by a running job of the same user: never refused by the waiting cap. */
const CONTINUATION_KINDS = new Set(['candidates']);

const BAND = 1_000_000;
const CLASS_BAND: Record<JobClass, number> = { interactive: BAND, batch: 0 };

export const DEFAULT_MAX_WAITING_PER_USER = 100;

export function jobClass(kind: string): JobClass {
  return INTERACTIVE_KINDS.has(kind) ? 'interactive' : 'batch';
}

export function isContinuation(kind: string): boolean {
  return CONTINUATION_KINDS.has(kind);
}

/** The pg-boss priority of a job whose user already has `waitingAhead` jobs of its class waiting in its lane. */
export function fairPriority(cls: JobClass, waitingAhead: number): number {
  return CLASS_BAND[cls] - Math.min(Math.max(0, waitingAhead), BAND - 1);
}

/** True when one more waiting job would pass the user's cap. */
export function overWaitingCap(kind: string, waitingTotal: number, maxWaitingPerUser: number): boolean {
  return !isContinuation(kind) && waitingTotal >= maxWaitingPerUser;
}
