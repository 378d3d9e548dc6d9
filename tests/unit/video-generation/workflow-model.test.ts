import { describe, expect, it } from 'vitest';
import { OTHER } from '../../../shared/fabric/fabric-fields';
import { emptyFabricForm, fabricInfo, formProblems } from '../../../src/features/video-generation/model/fabric-form';
import { planAdd, refuseFile } from '../../../src/features/video-generation/model/image-limits';
import { blockerOf, canOpen, nextStep, previousStep, type StepFacts } from '../../../src/features/video-generation/model/workflow-steps';
import { defaultPromptIds, mergeImages, placeStreamed, toggle } from '../../../src/features/video-generation/model/draft';
import type { GeneratedImage } from '../../../src/features/video-generation/model/generation-types';

const facts: StepFacts = {
  imageCount: 1,
  promptSelected: true,
  promptText: 'p',
  candidateCount: 6,
  selectedImages: 1,
  videoPromptCount: 3,
  selectedPrompts: 1,
  videoCount: 1,
  videosFinished: true,
};

describe('fabric form', () => {
  it('sends presets as labels, "other" as the own words, and leaves out what is empty', () => {
    const form = emptyFabricForm();
    form.text.fabric_name = '  Silk  ';
    form.choices.luster = { choice: 'soft', custom: '' };
    form.choices.drape = { choice: OTHER, custom: 'like water' };
    expect(fabricInfo(form, (f, k) => `${f}:${k}`)).toEqual({ fabric_name: 'Silk', luster: 'luster:soft', drape: 'like water' });
  });

  it('needs own words for "other" and keeps texts within their limits', () => {
    const form = emptyFabricForm();
    form.choices.touch = { choice: OTHER, custom: ' ' };
    form.text.remarks = 'x'.repeat(501);
    form.text.weight = 'x'.repeat(101);
    expect(formProblems(form)).toEqual([
      { field: 'weight', kind: 'tooLong', max: 100 },
      { field: 'touch', kind: 'customRequired' },
      { field: 'remarks', kind: 'tooLong', max: 500 },
    ]);
    expect(formProblems(emptyFabricForm())).toEqual([]);
  });
});

describe('6 / 6 / 10', () => {
  it('keeps what fits of the role and says how many could not be added', () => {
    expect(planAdd('model', { model: 0, pattern: 0 }, 8)).toEqual({ accepted: 6, rejected: 2, limit: 'role', roleCount: 6, totalCount: 6 });
  });
  it('stops at ten in all', () => {
    expect(planAdd('pattern', { model: 6, pattern: 0 }, 6)).toEqual({ accepted: 4, rejected: 2, limit: 'total', roleCount: 4, totalCount: 10 });
  });
  it('takes everything when there is room', () => {
    expect(planAdd('pattern', { model: 2, pattern: 1 }, 3)).toMatchObject({ accepted: 3, rejected: 0, limit: 'none' });
  });
  it('refuses other types and files over 10 MB', () => {
    expect(refuseFile({ type: 'image/bmp', size: 1 })).toBe('type');
    expect(refuseFile({ type: 'image/png', size: 11 * 1024 * 1024 })).toBe('size');
    expect(refuseFile({ type: 'image/webp', size: 1000 })).toBeNull();
  });
});

describe('step machine', () => {
  it('needs at least one selected, non-empty image prompt', () => {
    expect(blockerOf('prompt', { ...facts, promptSelected: false })).toBe('needPrompt');
    expect(blockerOf('prompt', { ...facts, promptText: '  ' })).toBe('needPromptText');
    expect(blockerOf('prompt', facts)).toBeNull();
  });
  it('needs images, a selection and a prompt selection', () => {
    expect(blockerOf('info', { ...facts, imageCount: 0 })).toBe('needImages');
    expect(blockerOf('select', { ...facts, selectedImages: 0 })).toBe('needSelection');
    expect(blockerOf('selectPrompts', { ...facts, selectedPrompts: 0 })).toBe('needPromptSelection');
    expect(blockerOf('videos', { ...facts, videosFinished: false })).toBe('needVideos');
  });
  it('opens any reached step and moves one at a time', () => {
    expect(canOpen('info', 'select')).toBe(true);
    expect(canOpen('videos', 'select')).toBe(false);
    expect(nextStep('info')).toBe('prompt');
    expect(previousStep('info')).toBe('info');
    expect(nextStep('complete')).toBe('complete');
  });
});

describe('draft helpers', () => {
  const image = (id: number): GeneratedImage => ({
    id, source: 'original', status: 'completed', label: null, prompt: '', model: null, provider: null,
    moments_text: null, url: null, thumbnail_url: null, width: null, height: null,
  });
  it('merges images by id in arrival order', () => {
    expect(mergeImages([image(1), image(2)], [image(2), image(3)]).map((i) => i.id)).toEqual([1, 2, 3]);
  });
  it('toggles selections and picks the first prompt per image for quick mode', () => {
    expect(toggle([1, 2], 2)).toEqual([1]);
    expect(toggle([1], 2)).toEqual([1, 2]);
    const prompts = [
      { id: 10, imageId: 1, text: '', camera: [], dirty: false },
      { id: 11, imageId: 1, text: '', camera: [], dirty: false },
      { id: 20, imageId: 2, text: '', camera: [], dirty: false },
    ];
    expect(defaultPromptIds(prompts, [2, 1, 3])).toEqual([20, 10]);
  });
});

describe('streamed analysis text', () => {
  it('places each piece at its offset, so a retried attempt replaces the cut text instead of adding to it', () => {
    let text = '';
    text = placeStreamed(text, 'The print is ', 0);
    text = placeStreamed(text, 'a half', 13);
    // The stream was cut; the new attempt starts again at 0.
    text = placeStreamed(text, 'The print is ', 0);
    text = placeStreamed(text, 'a small rose.', 13);
    expect(text).toBe('The print is a small rose.');
    // An older server without offsets: appended as before.
    expect(placeStreamed('ab', 'c', undefined)).toBe('abc');
  });
});
