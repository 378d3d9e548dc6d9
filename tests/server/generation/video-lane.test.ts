// The built-in engine renders one video at a time, so its video jobs have a lane of one slot of
// their own: a video waiting for the renderer holds no slot of the image lane.
import { describe, expect, it } from 'vitest';
import { concurrencyFrom } from '../../../server/jobs/job-engine.js';
import { DEFAULT_RUNNER_OPTIONS, LOCAL_VIDEO_LANE } from '../../../server/jobs/job-runner.js';
import { laneOf, videoLaneOf } from '../../../server/modules/generation/engines/generation-providers.js';

describe('the video lane', () => {
  it("is the built-in engine's own, and the provider's for a cloud", () => {
    expect(videoLaneOf({ provider: 'local' })).toBe(LOCAL_VIDEO_LANE);
    expect(laneOf({ provider: 'local' })).toBe('local');
    expect(videoLaneOf({ provider: 'kling' })).toBe('kling');
    expect(videoLaneOf(undefined)).toBe('none');
  });

  it('has one slot by default, beside two for the local image lane and four for each cloud', () => {
    const c = DEFAULT_RUNNER_OPTIONS.concurrency;
    expect([c(LOCAL_VIDEO_LANE), c('local'), c('gemini')]).toEqual([1, 2, 4]);
  });

  it('keeps its one slot under JOB_CONCURRENCY\'s "*", and takes a limit named for it', () => {
    const limits = concurrencyFrom({ local: 3, '*': 8 });
    expect([limits(LOCAL_VIDEO_LANE), limits('local'), limits('gemini')]).toEqual([1, 3, 8]);
    expect(concurrencyFrom({ 'local-video': 2 })(LOCAL_VIDEO_LANE)).toBe(2);
    expect(concurrencyFrom(undefined)(LOCAL_VIDEO_LANE)).toBe(1);
  });
});
