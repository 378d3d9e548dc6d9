import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { EnhanceInput } from '../../../../server/providers/capabilities.js';
import { ProviderError } from '../../../../server/providers/capabilities.js';
import { createLocalEnhancer, IMAGE_CONFIDENCE } from '../../../../server/providers/local/enhancer.js';
import { LOCAL_PREVIEW_MODEL } from '../../../../server/providers/local/model-name.js';
import { toneCorrectionFor } from '../../../../server/providers/local/image-tone-correction.js';
import { jpeg, png } from './test-images.js';

/** A dull, low-contrast photo: values squeezed into 90..160. */
const dull = (x: number, y: number): [number, number, number] => [90 + ((x * 3) % 70), 100 + ((y * 2) % 60), 110 + ((x + y) % 50)];

function request(over: Partial<EnhanceInput>): EnhanceInput {
  return {
    type: 'image',
    images: [],
    creativity: 0.5,
    precision: 0.5,
    style: 'natural',
    language: 'en-US',
    signal: new AbortController().signal,
    ...over,
  };
}

describe('local enhancer', () => {
  it('enlarges an image x2 with lanczos and stretches its tones, keeping the format', async () => {
    const enhancer = createLocalEnhancer();
    const input = await jpeg(80, 60, dull);
    const result = await enhancer.enhance(request({ images: [{ data: input, mimeType: 'image/jpeg', role: 'source' }] }));
    expect(result.model).toBe(`${LOCAL_PREVIEW_MODEL} · lanczos ×2`);
    expect(result.confidence).toBe(IMAGE_CONFIDENCE.lanczos);
    expect(result.text).toBeUndefined();
    const [image] = result.images;
    expect(image).toMatchObject({ mimeType: 'image/jpeg', width: 160, height: 120 });
    const meta = await sharp(image!.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 160, 120]);
    const before = await sharp(input).stats();
    const after = await sharp(image!.data).stats();
    // Auto levels widen the tonal range.
    expect(after.channels[0]!.stdev).toBeGreaterThan(before.channels[0]!.stdev * 1.3);
  });

  it('uses the server upscaler when given one, with its signal, and says it is surer', async () => {
    const calls: AbortSignal[] = [];
    const enhancer = createLocalEnhancer({
      upscale: async (image, signal) => {
        calls.push(signal);
        const meta = await sharp(image).metadata();
        const data = await sharp(image).resize(meta.width * 2, meta.height * 2, { kernel: 'nearest' }).png().toBuffer();
        return { data, model: 'Real-CUGAN up2x-conservative ×2 (40×30 → 80×60)' };
      },
    });
    const signal = new AbortController().signal;
    const result = await enhancer.enhance(request({ images: [{ data: await png(40, 30, dull), mimeType: 'image/png', role: 'source' }], signal }));
    expect(calls).toEqual([signal]);
    expect(result.confidence).toBe(IMAGE_CONFIDENCE.withUpscaler);
    expect(result.images[0]).toMatchObject({ mimeType: 'image/png', width: 80, height: 60 });
    // The item says which model and scale it used.
    expect(result.model).toBe(`${LOCAL_PREVIEW_MODEL} · Real-CUGAN up2x-conservative ×2 (40×30 → 80×60)`);
  });

  it('says lanczos when the upscaler failed (no model files) and stands in for it, but never past a cancel', async () => {
    const failures: unknown[] = [];
    const enhancer = createLocalEnhancer({
      upscale: async () => {
        throw new Error('ENOENT: no model files');
      },
      onUpscaleFallback: (e) => failures.push(e),
    });
    const result = await enhancer.enhance(request({ images: [{ data: await png(40, 30, dull), mimeType: 'image/png', role: 'source' }] }));
    expect(result.model).toBe(`${LOCAL_PREVIEW_MODEL} · lanczos ×2`);
    expect(result.confidence).toBe(IMAGE_CONFIDENCE.lanczos);
    expect(failures).toHaveLength(1);
    const controller = new AbortController();
    const cancelling = createLocalEnhancer({
      upscale: async () => {
        controller.abort();
        throw new Error('aborted');
      },
    });
    await expect(
      cancelling.enhance(request({ images: [{ data: await png(40, 30, dull), mimeType: 'image/png', role: 'source' }], signal: controller.signal })),
    ).rejects.toSatisfy((e: unknown) => e instanceof ProviderError && e.kind === 'cancelled');
  });

  it('keeps transparency', async () => {
    const enhancer = createLocalEnhancer();
    const rgba = await sharp({ create: { width: 20, height: 20, channels: 4, background: { r: 200, g: 50, b: 50, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const result = await enhancer.enhance(request({ images: [{ data: rgba, mimeType: 'image/png', role: 'source' }] }));
    const stats = await sharp(result.images[0]!.data).stats();
    expect(stats.channels).toHaveLength(4);
    expect(stats.channels[3]!.mean).toBeGreaterThan(120);
    expect(stats.channels[3]!.mean).toBeLessThan(135);
  });

  it('settings: creativity moves further, precision holds back, styles differ', () => {
    const calm = toneCorrectionFor('natural', 0.1, 0.9);
    const bold = toneCorrectionFor('artistic', 0.9, 0.1);
    expect(bold.contrast).toBeGreaterThan(calm.contrast);
    expect(bold.saturation).toBeGreaterThan(calm.saturation);
    expect(bold.clipPercent).toBeGreaterThan(calm.clipPercent);
    expect(toneCorrectionFor('professional', 0.5, 0.8).sharpen).toBeGreaterThan(0);
    expect(toneCorrectionFor('creative', 1, 0).saturation).toBeGreaterThan(toneCorrectionFor('creative', 1, 1).saturation);
  });

  it('tidies text, and a mixed request gets both with the lower confidence', async () => {
    const enhancer = createLocalEnhancer();
    const text = await enhancer.enhance(request({ type: 'text', text: '面料成分:65%poly,35%棉' }));
    expect(text.text).toBe('面料成分：65% polyester, 35% 棉');
    expect(text.images).toEqual([]);
    expect(text.confidence).toBeGreaterThanOrEqual(0.2);
    expect(text.confidence).toBeLessThanOrEqual(0.4);

    const mixed = await enhancer.enhance(
      request({ type: 'mixed', text: '180gsm', images: [{ data: await png(16, 16, dull), mimeType: 'image/png', role: 'source' }] }),
    );
    expect(mixed.text).toBe('180 g/m²');
    expect(mixed.images).toHaveLength(1);
    // The text: one fix, spelling checked (0.34); the image: lanczos.
    expect(mixed.confidence).toBe(Math.min(IMAGE_CONFIDENCE.lanczos, 0.34));
  });

  it("polishes the issue's example: spelling from the English dictionary, a capital after the full stop, every change listed", async () => {
    const enhancer = createLocalEnhancer();
    const result = await enhancer.enhance(
      request({ type: 'text', text: 'Soft floral chifon, light and airy, good for sumer dresses. very nice hand feel' }),
    );
    expect(result.text).toBe('Soft floral chiffon, light and airy, good for summer dresses. Very nice hand feel.');
    expect(result.textChanges).toEqual({
      spelling: { checked: true, dictionary: 'en-US' },
      changes: [
        { rule: 'capitalisation', from: '. very', to: '. Very' },
        { rule: 'final-stop', from: 'feel', to: 'feel.' },
        { rule: 'spelling', from: 'chifon', to: 'chiffon' },
        { rule: 'spelling', from: 'sumer', to: 'summer' },
      ],
      unknown: [],
    });
    expect(result.confidence).toBeGreaterThan(0.4);
  });

  it('keeps fabric words, leaves names and unsure words as written and lists them', async () => {
    const enhancer = createLocalEnhancer();
    const fabrics = 'Organza, jacquard, viscose and elastane; lyocell, tencel, boucle, georgette and charmeuse with a drapey handfeel.';
    const kept = await enhancer.enhance(request({ type: 'text', text: fabrics }));
    expect(kept.text).toBe(fabrics);
    expect(kept.textChanges!.changes).toEqual([]);
    const names = await enhancer.enhance(request({ type: 'text', text: 'Made by Xanthoria Mills in xqzvbk weave.' }));
    expect(names.text).toBe('Made by Xanthoria Mills in xqzvbk weave.');
    expect(names.textChanges!.unknown).toEqual(['Xanthoria', 'xqzvbk']);
  });

  it('checks Vietnamese with its own dictionary, and says plainly where a language has none', async () => {
    const enhancer = createLocalEnhancer();
    const vi = await enhancer.enhance(request({ type: 'text', language: 'vi-VN', text: 'Vải lụa mềm mại,rất đẹp. phù hợp váy mùa hè' }));
    expect(vi.text).toBe('Vải lụa mềm mại, rất đẹp. Phù hợp váy mùa hè.');
    expect(vi.textChanges!.spelling).toEqual({ checked: true, dictionary: 'vi-VN' });
    // English text written by a Vietnamese reader is still checked in English.
    const en = await enhancer.enhance(request({ type: 'text', language: 'vi-VN', text: 'Soft chifon' }));
    expect([en.text, en.textChanges!.spelling]).toEqual(['Soft chiffon', { checked: true, dictionary: 'en-US' }]);
    for (const [language, text] of [
      ['zh-CN', '这款雪纺面料轻盈,适合夏季连衣裙.'],
      ['th-TH', 'ผ้าชีฟองนุ่มเบา'],
      ['id-ID', 'Kain sifon lembut. sangat nyaman'],
    ] as const) {
      const r = await enhancer.enhance(request({ type: 'text', language, text }));
      expect(r.textChanges!.spelling).toEqual({ checked: false, language });
      expect(r.confidence).toBeLessThanOrEqual(0.4);
    }
  });

  it('refuses empty requests and unreadable images, and honours cancellation', async () => {
    const enhancer = createLocalEnhancer();
    const kind = (k: string) => (e: unknown) => e instanceof ProviderError && e.kind === k;
    await expect(enhancer.enhance(request({ type: 'text', text: '  ' }))).rejects.toSatisfy(kind('invalid_request'));
    await expect(enhancer.enhance(request({ type: 'image' }))).rejects.toSatisfy(kind('invalid_request'));
    await expect(
      enhancer.enhance(request({ images: [{ data: Buffer.from('nope'), mimeType: 'image/png', role: 'source' }] })),
    ).rejects.toSatisfy(kind('invalid_request'));
    const controller = new AbortController();
    controller.abort();
    await expect(enhancer.enhance(request({ type: 'text', text: 'x', signal: controller.signal }))).rejects.toSatisfy(kind('cancelled'));
  });
});
