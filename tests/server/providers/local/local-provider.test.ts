import { describe, expect, it } from 'vitest';
import { createLocalProvider, LOCAL_PREVIEW_MODEL, readMp4Facts, videoTrack } from '../../../../server/providers/local/index.js';
import type { VideoTaskState } from '../../../../server/providers/capabilities.js';
import { RED, WHITE, jpeg, modelPhoto, png, verticalStripes } from './test-images.js';

// The whole video workflow through the built-in engine: no keys, no network.
describe('built-in engine, the whole workflow', () => {
  it('analyses, composes candidates, writes prompts, renders a video and enhances, all as a local preview', async () => {
    const provider = createLocalProvider({ textPauseMs: 0, video: { fps: 8, maxShortSide: 96, pollIntervalMs: 20 } });
    const signal = new AbortController().signal;
    const model = { data: await jpeg(240, 320, modelPhoto(240, 320)), mimeType: 'image/jpeg', role: 'model' as const };
    const pattern = { data: await png(200, 200, verticalStripes(20, RED, WHITE)), mimeType: 'image/png', role: 'pattern' as const };

    const analysis = await provider.analyser.analyse(
      { prompt: 'Resort shirt', fabric: { fabric_name: 'Riviera' }, modelImages: [model], patternImages: [pattern], language: 'id-ID', signal },
      () => {},
    );
    expect(analysis.model).toBe(LOCAL_PREVIEW_MODEL);

    const candidates = await provider.imageGenerator.generateImages(
      { prompt: analysis.data.image_prompt, sources: [model, pattern], count: 6, aspect: 'vertical', language: 'id-ID', analysis: analysis.data, signal },
      () => {},
    );
    expect(candidates.images).toHaveLength(6);
    expect(candidates.model).toBe(LOCAL_PREVIEW_MODEL);
    const chosen = candidates.images[0]!;

    const prompts = await provider.promptWriter.writeVideoPrompts({
      image: { data: chosen.data, mimeType: chosen.mimeType, role: 'source' },
      fabric: { fabric_name: 'Riviera' },
      userPrompt: '',
      analysis: analysis.data,
      count: 3,
      language: 'id-ID',
      signal,
    });
    expect(prompts.prompts).toHaveLength(3);
    expect(prompts.model).toBe(LOCAL_PREVIEW_MODEL);
    const draft = prompts.prompts[1]!;

    const started = await provider.videoGenerator.startVideo(
      {
        kind: 'standard',
        firstFrame: { data: chosen.data, mimeType: chosen.mimeType, role: 'first-frame' },
        prompt: draft.prompt,
        camera: draft.camera,
        aspect: 'auto',
        durationSeconds: 2,
        resolution: '768P',
        promptOptimizer: true,
        watermark: true,
      },
      signal,
    );
    expect(started.model).toBe(LOCAL_PREVIEW_MODEL);
    let state: VideoTaskState;
    do {
      await new Promise((r) => setTimeout(r, provider.videoGenerator.pollIntervalMs));
      state = await provider.videoGenerator.pollVideo(started.taskId, signal);
    } while (state.state === 'queued' || state.state === 'processing');
    if (state.state !== 'succeeded') throw new Error(JSON.stringify(state));
    // auto: the 3:4 candidate's own shape, short side capped at 96.
    expect(videoTrack(readMp4Facts(state.video.data!))).toMatchObject({ codec: 'avc1', width: 96, height: 128, sampleCount: 16 });

    const enhanced = await provider.enhancer.enhance({
      type: 'mixed',
      text: analysis.data.moments_text + '  180gsm',
      images: [{ data: chosen.data, mimeType: chosen.mimeType, role: 'source' }],
      creativity: 0.4,
      precision: 0.7,
      style: 'professional',
      language: 'id-ID',
      signal,
    });
    expect(enhanced.model).toBe(`${LOCAL_PREVIEW_MODEL} · lanczos ×2`);
    expect(enhanced.text).toMatch(/180 g\/m²$/);
    expect(enhanced.images[0]).toMatchObject({ width: chosen.width * 2, height: chosen.height * 2 });
    expect(enhanced.confidence).toBeLessThanOrEqual(0.4);
  });
});
