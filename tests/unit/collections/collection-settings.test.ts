// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CANDIDATES,
  MAX_IMAGE_PROMPT_LENGTH,
  defaultSettings,
  normalizeSettings,
  settingsProblems,
  toggleCamera,
} from '../../../src/features/collections/model/collection-settings';

describe('collection settings', () => {
  it('open with 4 candidates, the score rule, a stop for review and a standard auto video', () => {
    expect(defaultSettings('p')).toEqual({
      image_prompt: 'p',
      candidates: DEFAULT_CANDIDATES,
      pick_rule: 'score',
      stop_for_review: true,
      video: { kind: 'standard', aspect: 'auto', camera: [], duration: 6, resolution: '768P' },
    });
    expect(DEFAULT_CANDIDATES).toBe(4);
  });

  it('name what stops Start, field by field', () => {
    expect(settingsProblems('Summer', defaultSettings('prompt'))).toEqual([]);
    expect(settingsProblems('  ', defaultSettings(' '))).toEqual([
      { field: 'name', kind: 'required' },
      { field: 'image_prompt', kind: 'required' },
    ]);
    const long = { ...defaultSettings('x'.repeat(MAX_IMAGE_PROMPT_LENGTH + 1)), candidates: 7 };
    expect(settingsProblems('n'.repeat(101), long)).toEqual([
      { field: 'name', kind: 'tooLong', max: 100 },
      { field: 'image_prompt', kind: 'tooLong', max: MAX_IMAGE_PROMPT_LENGTH },
      { field: 'candidates', kind: 'range', min: 1, max: 6 },
    ]);
    expect(settingsProblems('n', { ...defaultSettings('p'), candidates: 0 })[0]?.field).toBe('candidates');
    expect(settingsProblems('n', { ...defaultSettings('p'), candidates: 2.5 })[0]?.field).toBe('candidates');
    const fourMoves = defaultSettings('p');
    fourMoves.video.camera = ['Push in', 'Pull out', 'Pan left', 'Pan right'];
    expect(settingsProblems('n', fourMoves)).toEqual([{ field: 'camera', kind: 'tooMany', max: 3 }]);
  });

  it('take at most three camera moves', () => {
    let camera = toggleCamera([], 'Push in');
    camera = toggleCamera(camera, 'Pan left');
    camera = toggleCamera(camera, 'Shake');
    expect(toggleCamera(camera, 'Zoom in')).toEqual(['Push in', 'Pan left', 'Shake']);
    expect(toggleCamera(camera, 'Pan left')).toEqual(['Push in', 'Shake']);
  });

  it('read back from storage, anything out of bounds takes its default', () => {
    expect(normalizeSettings(undefined)).toEqual(defaultSettings());
    expect(
      normalizeSettings({
        image_prompt: 'kept',
        candidates: 9,
        pick_rule: 'model',
        stop_for_review: false,
        video: { kind: 'standard', aspect: 'vertical', camera: ['Shake', 'Dance' as 'Shake'], duration: 10, resolution: '4K' as '1080P' },
      }),
    ).toEqual({
      image_prompt: 'kept',
      candidates: 4,
      pick_rule: 'model',
      stop_for_review: false,
      video: { kind: 'standard', aspect: 'vertical', camera: ['Shake'], duration: 10, resolution: '768P' },
    });
  });
});
