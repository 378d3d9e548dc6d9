import { describe, expect, it } from 'vitest';
import { createBatchEndTracker } from '../../../src/app/batch-end';
import type { QueueItem, QueueItemStatus, QueueSnapshot } from '../../../src/workers/upscale-queue/protocol';

const START = 1_000_000;
/** [id, status, updatedAt]; updatedAt after START unless given. */
const snap = (...items: [string, QueueItemStatus, number?][]): QueueSnapshot => ({
  items: items.map(
    ([id, status, updatedAt]) => ({ id, status, updatedAt: updatedAt ?? START + 1 }) as QueueItem,
  ),
  paused: null,
  inFlight: 0,
});

describe('batch end tracker', () => {
  it('answers once, when the last open item settles, with how the batch went', () => {
    const tracker = createBatchEndTracker(START);
    expect(tracker.next(snap(['a', 'waiting'], ['b', 'waiting'], ['c', 'waiting']))).toBeNull();
    expect(tracker.next(snap(['a', 'completed'], ['b', 'processing'], ['c', 'waiting']))).toBeNull();
    expect(tracker.next(snap(['a', 'completed'], ['b', 'failed'], ['c', 'completed']))).toEqual({
      completed: 2,
      failed: 1,
    });
    expect(tracker.next(snap(['a', 'completed'], ['b', 'failed'], ['c', 'completed']))).toBeNull();
  });

  it('counts items that finished between two snapshots, never seen open', () => {
    const tracker = createBatchEndTracker(START);
    expect(tracker.next(snap())).toBeNull();
    expect(tracker.next(snap(['a', 'completed'], ['b', 'processing']))).toBeNull();
    expect(tracker.next(snap(['a', 'completed'], ['b', 'completed']))).toEqual({ completed: 2, failed: 0 });
    // A whole batch done before the first snapshot showed it.
    expect(
      tracker.next(snap(['a', 'completed'], ['b', 'completed'], ['c', 'completed'], ['d', 'failed'])),
    ).toEqual({
      completed: 1,
      failed: 1,
    });
  });

  it('keeps quiet about results restored from before this page, and counts only this batch', () => {
    const tracker = createBatchEndTracker(START);
    expect(
      tracker.next(snap(['old', 'completed', START - 5000], ['old2', 'failed', START - 4000])),
    ).toBeNull();
    tracker.next(
      snap(['old', 'completed', START - 5000], ['old2', 'failed', START - 4000], ['new', 'waiting']),
    );
    expect(
      tracker.next(
        snap(['old', 'completed', START - 5000], ['old2', 'failed', START - 4000], ['new', 'completed']),
      ),
    ).toEqual({
      completed: 1,
      failed: 0,
    });
  });

  it('says nothing for a batch cancelled or wiped', () => {
    const tracker = createBatchEndTracker(START);
    tracker.next(snap(['b', 'waiting']));
    expect(tracker.next(snap(['b', 'cancelled']))).toBeNull();
    tracker.next(snap(['c', 'processing']));
    expect(tracker.next(snap())).toBeNull();
  });

  it('waits while an interrupted item needs the user', () => {
    const tracker = createBatchEndTracker(START);
    tracker.next(snap(['a', 'processing'], ['b', 'waiting']));
    expect(tracker.next(snap(['a', 'completed'], ['b', 'interrupted']))).toBeNull();
    expect(tracker.next(snap(['a', 'completed'], ['b', 'completed']))).toEqual({ completed: 2, failed: 0 });
  });
});
