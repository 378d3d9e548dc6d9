// The time a collection still needs, from its own measured stage durations: every stage an open item
// has still to run takes the mean time that stage took this collection's items so far, less what
// the running stage has already spent. The items then go through COLLECTION_ACTIVE_ITEMS lanes as
// the feeder runs them: the running ones hold a lane until their remaining time is spent, and
// each queued one (in sheet order) takes the lane that frees first. The answer is when the last
// lane frees. Nothing is guessed: until every stage the open items still need has been measured at
// least once (in practice: one item is done), there is no estimate.
import { COLLECTION_ACTIVE_ITEMS, STAGES, type Stage } from '../../../shared/collections/collection-types.js';

/** Durations (ms) this collection's items took at each stage, from the stages they finished. */
export type StageSamples = Partial<Record<Stage, readonly number[]>>;

export interface OpenItem {
  position: number;
  /** Running items hold a lane; queued ones wait for one. */
  status: 'queued' | 'running';
  /** The stage running now, or the next one to run. */
  stage: Stage;
  /** How long the running stage has run so far (0 for a queued item). */
  stageElapsedMs: number;
  /** The item's last stage to run on its own: `pick` when it stops there for a person's review. */
  lastStage: Stage;
}

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** Time left in ms; null while a stage still to run has no measured duration. */
export function estimateTimeLeft(
  samples: StageSamples,
  open: readonly OpenItem[],
  activeItems: number = COLLECTION_ACTIVE_ITEMS,
): number | null {
  const means = new Map<Stage, number>();
  for (const stage of STAGES) {
    const measured = (samples[stage] ?? []).filter((ms) => Number.isFinite(ms) && ms >= 0);
    if (measured.length > 0) means.set(stage, mean(measured));
  }
  // Before anything was measured there is nothing to go on, even when nothing is open.
  if (means.size === 0) return null;

  const remaining = (item: OpenItem): number | null => {
    const from = STAGES.indexOf(item.stage);
    const to = STAGES.indexOf(item.lastStage);
    let total = 0;
    for (let i = from; i <= to; i += 1) {
      const took = means.get(STAGES[i]!);
      if (took === undefined) return null;
      // The running stage counts what it has left (never below nothing: it may run long).
      total += i === from ? Math.max(0, took - item.stageElapsedMs) : took;
    }
    return total;
  };

  const lanes = new Array<number>(Math.max(1, activeItems)).fill(0);
  const inOrder = [...open].sort((a, b) => a.position - b.position);
  const running = inOrder.filter((item) => item.status === 'running');
  const queued = inOrder.filter((item) => item.status === 'queued');
  for (const [i, item] of running.entries()) {
    const left = remaining(item);
    if (left === null) return null;
    // More running than lanes (a limit lowered while items ran): each still holds its own.
    if (i < lanes.length) lanes[i] = left;
    else lanes.push(left);
  }
  for (const item of queued) {
    const left = remaining(item);
    if (left === null) return null;
    const first = lanes.indexOf(Math.min(...lanes));
    lanes[first] = lanes[first]! + left;
  }
  return Math.round(Math.max(...lanes));
}
