// The analysis form: the images as file parts for a server without tus, or the ids of their
// finished resumable uploads in their place, in the same order.
import { describe, expect, it } from 'vitest';
import { analyzeForm, type AnalyzeInput } from '../../../src/features/video-generation/api/analyze-stream';
import { primeRuntimeConfig } from '../../../src/lib/api/runtime-config';
import { uploadedFields } from '../../../src/lib/upload/resumable-files';

const input: AnalyzeInput = {
  requestId: 'r1',
  prompt: 'p',
  description: '',
  language: 'en-US',
  fabricInfo: { fabric: 'linen' },
  modelImages: [new File(['m'], 'model.png', { type: 'image/png' })],
  patternImages: [new Blob(['a'], { type: 'image/jpeg' }), new Blob(['b'], { type: 'image/jpeg' })],
};

describe('analysis form', () => {
  it('carries the images as file parts without uploads', () => {
    const form = analyzeForm(input);
    expect((form.get('model_images') as File).name).toBe('model.png');
    expect(form.getAll('pattern_images').map((f) => (f as File).name)).toEqual(['pattern-1.jpeg', 'pattern-2.jpeg']);
    expect(form.has('model_images_upload_id')).toBe(false);
  });

  it('names finished uploads in their place, in order, with no file part', () => {
    const form = analyzeForm(input, [
      ['model_images_upload_id', 'u1'],
      ['pattern_images_upload_id', 'u2'],
      ['pattern_images_upload_id', 'u3'],
    ]);
    expect(form.getAll('model_images_upload_id')).toEqual(['u1']);
    expect(form.getAll('pattern_images_upload_id')).toEqual(['u2', 'u3']);
    expect(form.has('model_images')).toBe(false);
    expect(form.has('pattern_images')).toBe(false);
    expect(form.get('request_id')).toBe('r1');
  });

  it('sends files in the call where config.json names no tus endpoint', async () => {
    primeRuntimeConfig({ api: { main: '/api', image: '/image-api', upscale: '/upscale-api', third: '/third-api' }, version: '1' });
    const parts = [{ field: 'model_images', blob: new Blob(['x']), name: 'x.png' }];
    expect(await uploadedFields(parts, 'analysis', new AbortController().signal)).toBeNull();
  });
});
