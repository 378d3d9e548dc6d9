import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { GeneratedImage, ImageGenerationInput, InputImage } from '../../../../server/providers/capabilities.js';
import { ProviderError } from '../../../../server/providers/capabilities.js';
import { createLocalImageGenerator } from '../../../../server/providers/local/image-generator.js';
import { LOCAL_PREVIEW_MODEL } from '../../../../server/providers/local/model-name.js';
import { BLUE, RED, WHITE, blotches, jpeg, modelPhoto, png, verticalStripes } from './test-images.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function sources(which: { model?: boolean; pattern?: boolean }): Promise<InputImage[]> {
  const out: InputImage[] = [];
  if (which.model) out.push({ data: await jpeg(240, 320, modelPhoto(240, 320)), mimeType: 'image/jpeg', role: 'model' });
  if (which.pattern) out.push({ data: await png(200, 200, verticalStripes(20, RED, WHITE)), mimeType: 'image/png', role: 'pattern' });
  return out;
}

function request(over: Partial<ImageGenerationInput>): ImageGenerationInput {
  return { prompt: '', sources: [], count: 6, aspect: 'square', language: 'en-US', signal: new AbortController().signal, ...over };
}

/** Mean colour of an encoded image. */
async function meanRgb(data: Buffer): Promise<[number, number, number]> {
  const stats = await sharp(data).stats();
  return [stats.channels[0]!.mean, stats.channels[1]!.mean, stats.channels[2]!.mean];
}

describe('local image generator', () => {
  it('composes six distinct labelled candidates from model and pattern images, each handed over when ready', async () => {
    const generator = createLocalImageGenerator();
    const seen: [number, GeneratedImage][] = [];
    const result = await generator.generateImages(
      request({ sources: await sources({ model: true, pattern: true }), aspect: 'vertical' }),
      (image, index) => seen.push([index, image]),
    );
    expect(result.model).toBe(LOCAL_PREVIEW_MODEL);
    expect(result.images).toHaveLength(6);
    expect(seen.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(seen.map(([, img]) => img)).toEqual(result.images);
    expect(new Set(result.images.map((i) => sha(i.data))).size).toBe(6);
    expect(new Set(result.images.map((i) => i.label)).size).toBe(6);
    for (const image of result.images) {
      expect(image.mimeType).toBe('image/jpeg');
      const meta = await sharp(image.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 576, 768]);
      expect([image.width, image.height]).toEqual([576, 768]);
    }
    expect(result.images.map((i) => i.label)).toContain("Model photo toned to the pattern's colours");
    // The toned model photo leans toward the pattern's red.
    const [toned] = result.images;
    const original = await sharp((await sources({ model: true }))[0]!.data).resize(576, 768).jpeg().toBuffer();
    const [r1, g1] = await meanRgb(toned!.data);
    const [r0, g0] = await meanRgb(original);
    expect(r1 - g1).toBeGreaterThan(r0 - g0 + 10);
  });

  it('is deterministic', async () => {
    const generator = createLocalImageGenerator();
    const input = request({ sources: await sources({ model: true, pattern: true }), count: 3 });
    const a = await generator.generateImages(input, () => {});
    const b = await generator.generateImages(input, () => {});
    expect(a.images.map((i) => sha(i.data))).toEqual(b.images.map((i) => sha(i.data)));
  });

  it('works from pattern images alone and from model images alone, in the request language and aspect', async () => {
    const generator = createLocalImageGenerator();
    const patterns = await generator.generateImages(
      request({ sources: await sources({ pattern: true }), aspect: 'horizontal', language: 'zh-CN' }),
      () => {},
    );
    expect(patterns.images).toHaveLength(6);
    expect(new Set(patterns.images.map((i) => sha(i.data))).size).toBe(6);
    expect(patterns.images.map((i) => i.label)).toContain('半跳接回位');
    for (const i of patterns.images) expect([i.width, i.height]).toEqual([768, 576]);

    const models = await generator.generateImages(request({ sources: await sources({ model: true }), aspect: 'auto', language: 'th-TH' }), () => {});
    expect(models.images).toHaveLength(6);
    expect(new Set(models.images.map((i) => sha(i.data))).size).toBe(6);
    expect(models.images[1]!.label).toBe('ภาพนางแบบ โทนอุ่นขึ้น');
    // auto: the model photo's own 3:4.
    for (const i of models.images) expect([i.width, i.height]).toEqual([576, 768]);
    // The warmer one is warmer than the reframed one.
    const [r0, , b0] = await meanRgb(models.images[0]!.data);
    const [r1, , b1] = await meanRgb(models.images[1]!.data);
    expect(r1 - b1).toBeGreaterThan(r0 - b0 + 5);
  });

  it('serves other counts: fewer, and more with colourways', async () => {
    const generator = createLocalImageGenerator();
    const two = await generator.generateImages(request({ sources: await sources({ pattern: true }), count: 2 }), () => {});
    expect(two.images).toHaveLength(2);
    const nine = await generator.generateImages(
      request({ sources: [{ data: await png(96, 96, blotches(2, 10, BLUE, WHITE)), mimeType: 'image/png', role: 'pattern' }], count: 9 }),
      () => {},
    );
    expect(new Set(nine.images.map((i) => sha(i.data))).size).toBe(9);
  });

  it('regenerates one image as variations steered by the prompt keywords', async () => {
    const generator = createLocalImageGenerator();
    const source: InputImage = { data: await jpeg(240, 320, modelPhoto(240, 320)), mimeType: 'image/jpeg', role: 'source' };
    const warm = await generator.generateImages(request({ sources: [source], prompt: 'warmer please', aspect: 'auto' }), () => {});
    expect(warm.images).toHaveLength(6);
    expect(new Set(warm.images.map((i) => sha(i.data))).size).toBe(6);
    for (const i of warm.images) expect(i.label).toMatch(/^Variation \d: .*warmer/);
    const cool = await generator.generateImages(request({ sources: [source], prompt: 'make it cool', aspect: 'auto', count: 1 }), () => {});
    const [rw, , bw] = await meanRgb(warm.images[0]!.data);
    const [rc, , bc] = await meanRgb(cool.images[0]!.data);
    expect(rw - bw).toBeGreaterThan(rc - bc + 10);

    const zhRed = await generator.generateImages(
      request({ sources: [source], prompt: '整体偏红一点', aspect: 'square', language: 'zh-CN', count: 1 }),
      () => {},
    );
    expect(zhRed.images[0]!.label).toBe('变体 1：偏向红色');
    expect([zhRed.images[0]!.width, zhRed.images[0]!.height]).toEqual([768, 768]);
    const [r, g] = await meanRgb(zhRed.images[0]!.data);
    expect(r - g).toBeGreaterThan(20);

    const plain = await generator.generateImages(request({ sources: [source], prompt: 'another one', count: 6 }), () => {});
    expect(plain.images.map((i) => i.label)).toEqual([
      'Variation 1: reframed as is',
      'Variation 2: warmer',
      'Variation 3: cooler',
      'Variation 4: brighter',
      'Variation 5: tighter crop',
      'Variation 6: colourway +30°',
    ]);
  });

  it('fails clearly without images, and stops when cancelled', async () => {
    const generator = createLocalImageGenerator();
    await expect(generator.generateImages(request({ sources: [] }), () => {})).rejects.toSatisfy(
      (e: unknown) => e instanceof ProviderError && e.kind === 'invalid_request',
    );
    const controller = new AbortController();
    const seen: number[] = [];
    const pending = generator.generateImages(
      request({ sources: await sources({ model: true, pattern: true }), signal: controller.signal }),
      (_img, i) => {
        seen.push(i);
        if (i === 1) controller.abort();
      },
    );
    await expect(pending).rejects.toSatisfy((e: unknown) => e instanceof ProviderError && e.kind === 'cancelled');
    expect(seen).toEqual([0, 1]);
  });
});
