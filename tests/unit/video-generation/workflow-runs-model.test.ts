// The pure parts of the workflow's runs: progress states, the draft changes results make, the
// create call's body and what a reloaded page picks up again.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/api';
import { RetryGaveUp } from '../../../src/lib/retry/with-retry';
import { emptyDraft, type DraftPrompt, type VideoDraft } from '../../../src/features/video-generation/model/draft';
import type { GeneratedImage, ImageRequestView, VideoView } from '../../../src/features/video-generation/model/generation-types';
import { workToResume } from '../../../src/features/video-generation/model/resume-plan';
import {
  completedImages,
  goToStep,
  withFinishedAnalysis,
  withImagePrompts,
  withNewAnalysis,
  withVideoProgress,
  withoutImages,
} from '../../../src/features/video-generation/model/run-changes';
import { IDLE_RUN, failureMessage, openingRun, reconnectingRun } from '../../../src/features/video-generation/model/run-state';
import { VIDEOS_PER_CALL, specBatches, videoSpecs } from '../../../src/features/video-generation/model/video-specs';

function image(id: number, status: GeneratedImage['status'] = 'completed'): GeneratedImage {
  return {
    id,
    source: 'original',
    status,
    label: null,
    prompt: '',
    model: null,
    provider: null,
    moments_text: null,
    url: null,
    thumbnail_url: null,
    width: null,
    height: null,
  };
}

function video(id: number, patch: Partial<VideoView> = {}): VideoView {
  return {
    id,
    kind: 'standard',
    status: 'generating',
    progress: 0,
    source_image_id: 1,
    video_prompt: '',
    aspect: 'auto',
    duration: 6,
    resolution: '768P',
    model: null,
    provider: null,
    url: null,
    thumbnail_url: null,
    error: null,
    ...patch,
  };
}

function prompt(id: number, imageId: number, patch: Partial<DraftPrompt> = {}): DraftPrompt {
  return { id, imageId, text: `p${id}`, camera: ['Zoom in', 'Pan left', 'Tilt up', 'Shake'], dirty: false, ...patch };
}

function draft(patch: Partial<VideoDraft> = {}): VideoDraft {
  return { ...emptyDraft('id:1'), ...patch };
}

describe('run states', () => {
  it('an opening run shows its start, a cut its wait of at least a second', () => {
    const open = openingRun('Connecting', 500);
    expect(open).toEqual({ ...IDLE_RUN, running: true, progress: 1, message: 'Connecting', startedAt: 500 });
    const streak = { since: 0, failures: 1, nextAttemptAt: 8_000 };
    expect(reconnectingRun({ ...open, progress: 40 }, streak, 'Reconnecting', 2_000)).toEqual({
      ...open,
      progress: 40,
      retryInMs: 6_000,
      message: 'Reconnecting',
    });
    expect(reconnectingRun(open, streak, 'Reconnecting', 7_900).retryInMs).toBe(1000);
  });

  it('a failure says the error’s own words, the last one behind a spent budget, or the fallback', () => {
    const api = new ApiError('http', 500, 'Server says no');
    expect(failureMessage(api, 'fallback')).toBe('Server says no');
    expect(failureMessage(new RetryGaveUp(api, { since: 0, failures: 3, nextAttemptAt: 0 }), 'fallback')).toBe('Server says no');
    expect(failureMessage(new Error(''), 'fallback')).toBe('fallback');
    expect(failureMessage('text', 'fallback')).toBe('fallback');
  });
});

describe('draft changes of the runs', () => {
  it('moving to a step keeps the furthest step reached', () => {
    expect(goToStep('images')(draft({ step: 'prompt', furthest: 'prompt' }))).toMatchObject({ step: 'images', furthest: 'images' });
    expect(goToStep('prompt')(draft({ step: 'select', furthest: 'videos' }))).toMatchObject({ step: 'prompt', furthest: 'videos' });
  });

  it('a new analysis clears the last one’s results; a finished one adds its completed images', () => {
    const before = draft({ step: 'prompt', furthest: 'select', analysisText: 'old', candidates: [image(1)], selectedImageIds: [1] });
    const fresh = withNewAnalysis(before, 'req-2');
    expect(fresh).toMatchObject({ step: 'images', requestId: 'req-2', analysisStarted: true, analysisText: '', candidates: [], selectedImageIds: [] });
    const view: ImageRequestView = {
      id: 9,
      request_id: 'req-2',
      status: 'completed',
      analysis_text: 'A soft twill',
      model: 'm',
      provider: 'local',
      error: null,
      images: [image(2), image(3, 'failed')],
      candidates: { made: 1, refused: 1, total: 2, message: '1 of 2 images not made' },
    };
    expect(completedImages(view).map((i) => i.id)).toEqual([2]);
    expect(withFinishedAnalysis(fresh, view)).toMatchObject({
      step: 'select',
      analysisText: 'A soft twill',
      analysisModel: 'm',
      candidates: [image(2)],
      candidatesNotice: '1 of 2 images not made',
    });
    expect(withFinishedAnalysis({ ...fresh, analysisText: 'streamed' }, { ...view, analysis_text: null }).analysisText).toBe('streamed');
  });

  it('a cancelled regeneration’s images leave the candidates and the selection', () => {
    const d = draft({ candidates: [image(1), image(2), image(3)], selectedImageIds: [1, 3] });
    expect(withoutImages(d, [3])).toMatchObject({ candidates: [image(1), image(2)], selectedImageIds: [1] });
  });

  it('an image’s saved prompts replace its earlier ones and leave the others', () => {
    const d = draft({ videoPrompts: [prompt(1, 10), prompt(2, 20)] });
    expect(withImagePrompts(d, 10, [prompt(5, 10)]).videoPrompts.map((p) => p.id)).toEqual([2, 5]);
  });

  it('a progress event marks its video generating, never lowers its progress and keeps the last words', () => {
    const d = draft({ videos: [video(1, { status: 'pending', progress: 30 }), video(2)] });
    const after = withVideoProgress(d, { id: 1, progress: 20, message: 'Sampling: step 4 of 20' });
    expect(after.videos[0]).toMatchObject({ status: 'generating', progress: 30, progress_message: 'Sampling: step 4 of 20' });
    expect(after.videos[1]).toBe(d.videos[1]);
    expect(withVideoProgress(d, { id: 1, progress: 55 }).videos[0]).not.toHaveProperty('progress_message');
  });
});

describe('the create call', () => {
  it('sends each chosen prompt with its image’s settings; edited text goes as text', () => {
    const d = draft({
      videoPrompts: [prompt(1, 10), prompt(2, 20, { dirty: true, text: 'edited' })],
      settings: {
        20: { kind: 'first-last-frame', lastImageId: 21, aspect: 'vertical', duration: 10, resolution: '1080P', camera: ['Pan left'] },
      },
    });
    expect(videoSpecs(d, [1, 2, 99])).toEqual([
      {
        image_id: 10,
        kind: 'standard',
        video_prompt_id: 1,
        camera: ['Zoom in', 'Pan left', 'Tilt up'],
        aspect: 'auto',
        duration: 6,
        resolution: '768P',
        prompt_optimizer: true,
        watermark: false,
      },
      {
        image_id: 20,
        kind: 'first-last-frame',
        last_image_id: 21,
        prompt: 'edited',
        camera: ['Pan left'],
        aspect: 'vertical',
        duration: 10,
        resolution: '1080P',
        prompt_optimizer: true,
        watermark: false,
      },
    ]);
  });

  it('a first-last-frame choice without a last image is a standard video', () => {
    const d = draft({
      videoPrompts: [prompt(1, 10)],
      settings: { 10: { kind: 'first-last-frame', lastImageId: null, aspect: 'auto', duration: 6, resolution: '768P', camera: [] } },
    });
    expect(videoSpecs(d, [1])[0]).toMatchObject({ kind: 'standard' });
    expect(videoSpecs(d, [1])[0]).not.toHaveProperty('last_image_id');
  });

  it('splits the specs into calls the server accepts', () => {
    const d = draft({ videoPrompts: Array.from({ length: 23 }, (_, i) => prompt(i + 1, 10)) });
    const batches = specBatches(videoSpecs(d, d.videoPrompts.map((p) => p.id)));
    expect(batches.map((b) => b.length)).toEqual([VIDEOS_PER_CALL, VIDEOS_PER_CALL, 3]);
    expect(specBatches([])).toEqual([]);
  });
});

describe('after a reload', () => {
  it('picks up the work the draft says was running', () => {
    expect(workToResume(draft({ step: 'images', analysisStarted: true, requestId: 'r1' }))).toEqual({ kind: 'join-analysis', requestId: 'r1' });
    expect(workToResume(draft({ step: 'images', analysisStarted: false, requestId: 'r1' }))).toEqual({ kind: 'nothing' });
    expect(workToResume(draft({ step: 'videoPrompts', mode: 'quick' }))).toEqual({ kind: 'video-prompts', quick: true });
    const running = [video(1, { status: 'completed' }), video(2)];
    expect(workToResume(draft({ step: 'videos', videos: running }))).toEqual({ kind: 'follow-videos', ids: [1, 2] });
    expect(workToResume(draft({ step: 'complete', videos: running }))).toEqual({ kind: 'follow-videos', ids: [1, 2] });
    const ended = [video(1, { status: 'completed' }), video(2, { status: 'failed' })];
    expect(workToResume(draft({ step: 'videos', videos: ended }))).toEqual({ kind: 'mark-complete' });
    expect(workToResume(draft({ step: 'complete', videos: ended }))).toEqual({ kind: 'nothing' });
    expect(workToResume(draft({ step: 'videos', videos: [] }))).toEqual({ kind: 'nothing' });
  });
});
