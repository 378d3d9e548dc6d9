// The device queue's rules: at most QUEUE_CONCURRENCY items in flight (sending or still running on
// the server), oldest first; an item caught mid-send by a reload waits again; places in line.
import { describe, expect, it } from 'vitest';
import { afterReload, entriesToStart, QUEUE_CONCURRENCY, waitingPosition, type QueueEntry } from '../../../src/features/workshop/model/workshop-queue';

const entry = (id: string, createdAt: number, state: QueueEntry['state'] = 'waiting'): QueueEntry => ({
  id,
  userKey: 'id:1',
  type: 'text',
  text: id,
  files: [],
  config: { creativity: 0.5, precision: 0.5, style: 'natural' },
  state,
  createdAt,
});

describe('workshop queue', () => {
  it('starts the oldest waiting items up to the limit', () => {
    const entries = [entry('c', 3), entry('a', 1), entry('b', 2)];
    expect(QUEUE_CONCURRENCY).toBe(2);
    expect(entriesToStart(entries, 0).map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('counts items being sent and items still running on the server against the limit', () => {
    const entries = [entry('a', 1, 'sending'), entry('b', 2), entry('c', 3)];
    expect(entriesToStart(entries, 0).map((e) => e.id)).toEqual(['b']);
    expect(entriesToStart(entries, 1)).toEqual([]);
    expect(entriesToStart([entry('x', 1)], 2)).toEqual([]);
    expect(entriesToStart([entry('x', 1)], 5)).toEqual([]);
  });

  it('never starts failed items by itself', () => {
    expect(entriesToStart([entry('f', 1, 'failed'), entry('w', 2)], 0).map((e) => e.id)).toEqual(['w']);
  });

  it('honours another limit', () => {
    const entries = [entry('a', 1), entry('b', 2), entry('c', 3), entry('d', 4)];
    expect(entriesToStart(entries, 1, 3).map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('makes an item caught mid-send wait again after a reload, keeping the others as they were', () => {
    const out = afterReload([entry('a', 1, 'sending'), entry('b', 2, 'failed'), entry('c', 3)]);
    expect(out.map((e) => e.state)).toEqual(['waiting', 'failed', 'waiting']);
  });

  it('tells each waiting item its place in line', () => {
    const entries = [entry('c', 3), entry('s', 0, 'sending'), entry('a', 1), entry('b', 2)];
    expect(waitingPosition(entries, 'a')).toBe(1);
    expect(waitingPosition(entries, 'c')).toBe(3);
    expect(waitingPosition(entries, 's')).toBeNull();
  });
});
