// The fairness rule on its own (no queue, no database): which due job takes a free slot.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FAIR_SHARE,
  QueueFullError,
  batchSlots,
  pickNext,
  userKey,
  waitingCapRefusal,
  type Candidate,
  type JobClass,
  type QueueState,
  type SlotHolder,
} from '../../../server/jobs/fair-share.js';
import { message } from '../../../server/http/messages.js';

let nextId = 1;
const job = (user: string, jobClass: JobClass = 'batch', lane = 'local', readyAt = '2030-01-01T00:00:00.000Z'): Candidate => ({
  id: nextId++,
  user,
  lane,
  jobClass,
  readyAt,
});
const held = (user: string, jobClass: JobClass = 'batch', lane = 'local'): SlotHolder => ({ user, lane, jobClass });
const state = (running: SlotHolder[], capacity = 2, lastServed: [string, number][] = []): QueueState => ({
  running,
  capacity: () => capacity,
  lastServed: new Map(lastServed),
});
const noReserve = { interactiveReserve: 0 };

/** Starts jobs as the queue would until none may start; answers who got each slot. */
function fill(candidates: Candidate[], running: SlotHolder[], capacity: number, rules = DEFAULT_FAIR_SHARE): Candidate[] {
  const started: Candidate[] = [];
  let pool = [...candidates];
  const served = new Map<string, number>();
  for (;;) {
    const next = pickNext(pool, { running, capacity: () => capacity, lastServed: served }, rules);
    if (!next) return started;
    pool = pool.filter((c) => c !== next);
    running = [...running, next];
    served.set(next.user, started.length);
    started.push(next);
  }
}

describe('fair share', () => {
  it('starts interactive work before batch work, whatever their ages', () => {
    const video = job('a', 'batch', 'local', '2030-01-01T00:00:00.000Z');
    const analysis = job('b', 'interactive', 'local', '2030-01-01T00:05:00.000Z');
    expect(pickNext([video, analysis], state([]), DEFAULT_FAIR_SHARE)).toBe(analysis);
  });

  it('keeps a slot of a lane of two for interactive work, and shares a one-slot lane', () => {
    expect(batchSlots(2, DEFAULT_FAIR_SHARE)).toBe(1);
    expect(batchSlots(4, DEFAULT_FAIR_SHARE)).toBe(3);
    expect(batchSlots(1, DEFAULT_FAIR_SHARE)).toBe(1);
    const backlog = Array.from({ length: 100 }, () => job('a'));
    // One user's hundred videos take one of the two slots; the other stays free for an analysis.
    expect(fill(backlog, [], 2)).toHaveLength(1);
    const analysis = job('b', 'interactive');
    expect(pickNext([...backlog, analysis], state([held('a')]), DEFAULT_FAIR_SHARE)).toBe(analysis);
    // A batch job of a second user waits for the batch slot too.
    expect(pickNext([...backlog, job('b')], state([held('a')]), DEFAULT_FAIR_SHARE)).toBeUndefined();
  });

  it('lets one user use every slot while nobody else waits (work-conserving)', () => {
    const mine = [job('a', 'interactive'), job('a', 'interactive'), job('a', 'interactive')];
    expect(fill(mine, [], 2).map((c) => c.user)).toEqual(['a', 'a']);
    expect(fill([job('a'), job('a')], [], 2, { ...DEFAULT_FAIR_SHARE, ...noReserve })).toHaveLength(2);
  });

  it('caps one user at an even share of a lane while another user waits', () => {
    const started = fill([job('a'), job('a'), job('a'), job('b'), job('b')], [], 2, { ...DEFAULT_FAIR_SHARE, ...noReserve });
    expect(started.map((c) => c.user).sort()).toEqual(['a', 'b']);
    // a holds both slots when b arrives; the slot that frees next goes to b, not to a's next job.
    const afterOneEnds = pickNext([job('a'), job('b')], state([held('a')]), noReserve);
    expect(afterOneEnds?.user).toBe('b');
    // Four slots, three users: shares of two (rounded up), so no slot idles.
    const four = fill(['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c'].map((u) => job(u)), [], 4, { ...DEFAULT_FAIR_SHARE, ...noReserve });
    expect(four).toHaveLength(4);
    expect(new Set(four.map((c) => c.user))).toEqual(new Set(['a', 'b', 'c']));
  });

  it('takes users round-robin: fewest held slots, then least recently served, then the oldest job', () => {
    const old = job('a', 'interactive', 'local', '2030-01-01T00:00:00.000Z');
    const young = job('b', 'interactive', 'local', '2030-01-01T00:09:00.000Z');
    expect(pickNext([old, young], state([], 2, [['a', 5], ['b', 1]]), DEFAULT_FAIR_SHARE)).toBe(young);
    expect(pickNext([old, young], state([], 2, [['a', 1], ['b', 5]]), DEFAULT_FAIR_SHARE)).toBe(old);
    expect(pickNext([old, young], state([], 2), DEFAULT_FAIR_SHARE)).toBe(old);
    expect(pickNext([old, young], state([held('a', 'interactive')], 3), DEFAULT_FAIR_SHARE)).toBe(young);
    // Three users taking turns on a one-slot lane, one start at a time.
    const pool = ['a', 'a', 'a', 'b', 'b', 'c'].map((u) => job(u, 'interactive'));
    const served = new Map<string, number>();
    const order: string[] = [];
    let left = pool;
    for (let turn = 0; turn < 6; turn++) {
      const next = pickNext(left, { running: [], capacity: () => 1, lastServed: served }, DEFAULT_FAIR_SHARE)!;
      left = left.filter((c) => c !== next);
      served.set(next.user, turn);
      order.push(next.user);
    }
    expect(order).toEqual(['a', 'b', 'c', 'a', 'b', 'a']);
  });

  it('keeps lanes apart: a full lane does not stop another lane', () => {
    const remote = job('a', 'batch', 'remote');
    expect(pickNext([job('a'), remote], state([held('x'), held('y', 'interactive')]), DEFAULT_FAIR_SHARE)).toBe(remote);
  });

  it('refuses waiting jobs past the per-user cap with a 429 that says when to come back', () => {
    const rules = { maxWaitingPerUser: 50, retryAfterSeconds: 30 };
    expect(waitingCapRefusal(40, 10, rules)).toBeUndefined();
    const refusal = waitingCapRefusal(41, 10, rules);
    expect(refusal).toBeInstanceOf(QueueFullError);
    expect(refusal).toMatchObject({ status: 429, key: 'queue_full', options: { retryAfterSeconds: 30, vars: { limit: 50 } } });
    expect(message('queue_full', 'en-US', { limit: 50, seconds: 30 })).toBe(
      'You already have 50 generations waiting; please try again in 30 s',
    );
    expect(userKey(null)).not.toBe(userKey(1));
  });
});
