// The job runner's fairness rule (fair-share.ts) mapped onto pg-boss: its workers take the waiting
// job of highest priority first (then the oldest), so the order is set when a job is written.
//
//   priority = CLASS_BAND[class] - min(k, BAND - 1)
//
// where k is how many jobs of the same user and class already wait in that lane's queue. A user's
// first waiting job is 0 in its band, the next -1, and so on: user B's first job goes before the
// second job of user A's backlog (round-robin by rank), and an interactive job is in a band above
// every batch job. The per-user waiting cap is fair-share.ts's own (JobQueue.admit).
import type { JobClass } from '../fair-share.js';

const BAND = 1_000_000;
const CLASS_BAND: Record<JobClass, number> = { interactive: BAND, batch: 0 };

/** The pg-boss priority of a job whose user already has `waitingAhead` jobs of its class waiting in its lane. */
export function fairPriority(cls: JobClass, waitingAhead: number): number {
  return CLASS_BAND[cls] - Math.min(Math.max(0, waitingAhead), BAND - 1);
}
