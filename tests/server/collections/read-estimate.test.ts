// The time a collection has left, from its own measured stage durations, with at most
// COLLECTION_ACTIVE_ITEMS items running at once.
import { describe, expect, it } from 'vitest';
import { COLLECTION_ACTIVE_ITEMS } from '../../../shared/collections/collection-types.js';
import { estimateTimeLeft, type OpenItem, type StageSamples } from '../../../server/modules/collections/collection-estimate.js';

const S = 1000;
/** One item measured through every stage: 10 + 20 + 0 + 5 + 30 = 65 s. */
const ONE_DONE: StageSamples = { analysis: [10 * S], candidates: [20 * S], pick: [0], video_prompts: [5 * S], video: [30 * S] };
const queued = (position: number, over: Partial<OpenItem> = {}): OpenItem => ({
  position,
  status: 'queued',
  stage: 'analysis',
  stageElapsedMs: 0,
  lastStage: 'video',
  ...over,
});

describe('collection estimate', () => {
  it('three items run at once', () => expect(COLLECTION_ACTIVE_ITEMS).toBe(3));

  it('has none until an item is done, even with nothing open', () => {
    expect(estimateTimeLeft({}, [queued(1), queued(2)])).toBeNull();
    expect(estimateTimeLeft({}, [])).toBeNull();
  });

  it('has none while a stage still to run was never measured', () => {
    // One item analysed and given candidates, none picked yet: the later stages have no figure.
    const partial: StageSamples = { analysis: [10 * S], candidates: [20 * S] };
    expect(estimateTimeLeft(partial, [queued(1)])).toBeNull();
    // Items that stop for review after the pick need nothing past it... but the pick itself was never measured.
    expect(estimateTimeLeft(partial, [queued(1, { lastStage: 'pick' })])).toBeNull();
    expect(estimateTimeLeft({ ...partial, pick: [2 * S] }, [queued(1, { lastStage: 'pick' })])).toBe(32 * S);
  });

  it('is nothing once the measured collection has nothing open', () => {
    expect(estimateTimeLeft(ONE_DONE, [])).toBe(0);
  });

  it('shares the queued items between the lanes', () => {
    // Four queued items of 65 s each, three at a time: 130 s; two at a time, also 130 s.
    expect(estimateTimeLeft(ONE_DONE, [queued(1), queued(2), queued(3), queued(4)])).toBe(130 * S);
    expect(estimateTimeLeft(ONE_DONE, [queued(1), queued(2), queued(3), queued(4)], 2)).toBe(130 * S);
    // Three: all at once, 65 s; with two lanes the third waits, 130 s; one lane alone takes 195 s.
    expect(estimateTimeLeft(ONE_DONE, [queued(1), queued(2), queued(3)])).toBe(65 * S);
    expect(estimateTimeLeft(ONE_DONE, [queued(1), queued(2), queued(3)], 2)).toBe(130 * S);
    expect(estimateTimeLeft(ONE_DONE, [queued(1), queued(2), queued(3)], 1)).toBe(195 * S);
  });

  it('counts what the running stage has left, and the later stages whole', () => {
    const running: OpenItem = { position: 1, status: 'running', stage: 'candidates', stageElapsedMs: 15 * S, lastStage: 'video' };
    // 5 s of candidates left, then 0 + 5 + 30.
    expect(estimateTimeLeft(ONE_DONE, [running])).toBe(40 * S);
    // A stage running past its mean has nothing left of it, never less.
    expect(estimateTimeLeft(ONE_DONE, [{ ...running, stageElapsedMs: 90 * S }])).toBe(35 * S);
    // A queued item takes the lane that frees first: the free one (65 s), not after the running one.
    expect(estimateTimeLeft(ONE_DONE, [running, queued(2)], 2)).toBe(65 * S);
    // Two running (40 s and 35 s left) in two lanes: the queued one follows the 35 s lane, 100 s in all.
    const other: OpenItem = { ...running, position: 2, stage: 'video_prompts', stageElapsedMs: 0 };
    expect(estimateTimeLeft(ONE_DONE, [running, other, queued(3)], 2)).toBe(100 * S);
  });

  it('takes the mean of each stage over the items that finished it', () => {
    const two: StageSamples = { ...ONE_DONE, analysis: [10 * S, 30 * S], video: [20 * S, 40 * S, Number.NaN, -5] };
    // analysis 20, candidates 20, pick 0, prompts 5, video 30.
    expect(estimateTimeLeft(two, [queued(1)])).toBe(75 * S);
  });
});
