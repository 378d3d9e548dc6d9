import { describe, expect, it } from 'vitest';
import { parseFrom } from '../../../src/features/video-generation/api/history-source';
import { draftFromHistory, formFromFabric, settingsFromVideo } from '../../../src/features/video-generation/model/from-history';
import type { GeneratedImage } from '../../../src/features/video-generation/model/generation-types';

const label = (field: string, key: string) => (field === 'luster' && key === 'soft' ? 'Soft luster' : `${field}.${key}`);

describe('pre-filling from history', () => {
  it('reads ?from=image:<id> and video:<id> only', () => {
    expect(parseFrom('video:12')).toEqual({ kind: 'video', id: 12 });
    expect(parseFrom('image:3')).toEqual({ kind: 'image', id: 3 });
    expect(parseFrom('video:x')).toBeNull();
    expect(parseFrom(null)).toBeNull();
  });

  it('turns a preset label back into the preset and any other text into "other"', () => {
    const form = formFromFabric({ fabric_name: 'Silk', luster: 'soft luster', drape: 'like water' }, label);
    expect(form.text.fabric_name).toBe('Silk');
    expect(form.choices.luster).toEqual({ choice: 'soft', custom: '' });
    expect(form.choices.drape).toEqual({ choice: 'other', custom: 'like water' });
  });

  it("keeps a video's settings within what the page offers", () => {
    expect(settingsFromVideo({ kind: 'first-last-frame', last_image_id: 9, aspect: 'vertical', duration: 10, resolution: '1080P', camera: ['Push in', 'Pan left', 'Tilt up', 'Shake'] })).toEqual({
      kind: 'first-last-frame', lastImageId: 9, aspect: 'vertical', duration: 10, resolution: '1080P', camera: ['Push in', 'Pan left', 'Tilt up'],
    });
    expect(settingsFromVideo({ kind: 'first-last-frame', last_image_id: null, aspect: 'odd', duration: 7, resolution: '4K', camera: [] })).toMatchObject({
      kind: 'standard', aspect: 'auto', duration: 6, resolution: '768P',
    });
  });

  it('starts at image selection with the source image selected and the prompt chosen', () => {
    const image = { id: 5, label: 'x' } as GeneratedImage;
    const draft = draftFromHistory('id:1', { image, fabric: {}, prompt: 'p', description: null }, label);
    expect(draft).toMatchObject({ step: 'select', furthest: 'select', selectedImageIds: [5], promptSelected: true, promptText: 'p' });
  });
});
