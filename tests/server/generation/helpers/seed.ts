// A finished analyse request through the real call: six completed candidates to build on.
import { solidPng } from './fake-providers.js';
import type { GenerationTestApp } from './generation-app.js';

export interface SeededImage {
  id: number;
  status: string;
  generation_id: string;
  request_id: number;
}

export async function seedRequest(t: GenerationTestApp, token: string, requestId: string): Promise<SeededImage[]> {
  const model = await solidPng(40, 60, '#dddddd');
  const pattern = await solidPng(32, 32, '#2980b9');
  const { events } = await t.stream('/image-api/analyze-images-json-stream', {
    token,
    form: [
      { name: 'prompt', value: 'A summer dress' },
      { name: 'request_id', value: requestId },
      { name: 'fabric_name', value: 'Twill' },
      { name: 'model_images', value: model, filename: 'm.png' },
      { name: 'pattern_images', value: pattern, filename: 'p.png' },
    ],
  });
  const last = events.at(-1) as { type: string; data?: { images: SeededImage[] } };
  if (last.type !== 'complete') throw new Error(`seed failed: ${JSON.stringify(last)}`);
  return last.data!.images;
}
