import { describe, expect, it } from 'vitest';
import type { AnalyseInput, Language } from '../../../../server/providers/capabilities.js';
import { ProviderError } from '../../../../server/providers/capabilities.js';
import { createLocalAnalyser } from '../../../../server/providers/local/analyser.js';
import { LOCAL_PREVIEW_MODEL } from '../../../../server/providers/local/model-name.js';
import { RED, WHITE, NAVY, checkerboard, jpeg, modelPhoto, png, verticalStripes } from './test-images.js';

const LANGUAGES: Language[] = ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'];

async function input(language: Language, over: Partial<AnalyseInput> = {}): Promise<AnalyseInput> {
  return {
    prompt: 'Resort shirt, relaxed fit',
    fabric: {
      fabric_name: 'Riviera Stripe',
      composition: '100% cotton',
      weight: '180',
      touch: 'soft and skin-friendly',
      selling_points: 'breathable, easy care',
      suggested_uses: 'shirts, dresses',
      scene: 'seaside terrace',
    },
    description: 'summer capsule',
    modelImages: [{ data: await jpeg(192, 256, modelPhoto(192, 256)), mimeType: 'image/jpeg', role: 'model' }],
    patternImages: [{ data: await png(256, 256, verticalStripes(16, RED, WHITE)), mimeType: 'image/png', role: 'pattern' }],
    language,
    signal: new AbortController().signal,
    ...over,
  };
}

describe('local analyser', () => {
  it('streams the analysis sentence by sentence and resolves with the whole and the facts', async () => {
    const analyser = createLocalAnalyser({ pauseMs: 0 });
    const chunks: string[] = [];
    const result = await analyser.analyse(await input('en-US'), (c) => chunks.push(c));
    expect(chunks.length).toBeGreaterThanOrEqual(6);
    expect(chunks.join('')).toBe(result.text);
    expect(result.model).toBe(LOCAL_PREVIEW_MODEL);
    expect(result.model).toMatch(/local preview/);
    expect(result.text).toMatch(/vertical stripes repeating about every 16 px/);
    expect(result.text).toMatch(/red #FF0000 \(50%\) and white #FFFFFF \(50%\)/);
    expect(result.text).toMatch(/weight: 180 g\/m²/);
    expect(result.text).toMatch(/no AI model was used/);
    const { data } = result;
    expect(data.colors.map((c) => [c.name, c.hex, c.share])).toEqual([
      ['red', '#ff0000', 0.5],
      ['white', '#ffffff', 0.5],
    ]);
    expect(data.pattern).toEqual({ kind: 'vertical stripes', scale: 'fine', orientation: 'vertical', repeat: '16 px' });
    expect(data.image_prompt).toMatch(/^Resort shirt, relaxed fit\./);
    expect(data.image_prompt).toMatch(/scene: seaside terrace/);
    expect(data.moments_text).toMatch(/Riviera Stripe/);
    expect(data.moments_text).toMatch(/Breathable, easy care/);
    expect(data.style).toBeTruthy();
    expect(data.summary).toMatch(/^Vertical stripes/);
  });

  it('pauses between pieces so the stream is visible', async () => {
    const analyser = createLocalAnalyser({ pauseMs: 15 });
    const times: number[] = [];
    await analyser.analyse(await input('en-US'), () => times.push(Date.now()));
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(15 * (times.length - 1) - 5);
  });

  it('writes in each of the five languages', async () => {
    const analyser = createLocalAnalyser({ pauseMs: 0 });
    const scripts: Record<Language, RegExp> = {
      'zh-CN': /竖条纹/,
      'en-US': /Dominant colours/,
      'vi-VN': /sọc dọc/,
      'th-TH': /ลายทางแนวตั้ง/,
      'id-ID': /garis vertikal/,
    };
    const texts = new Set<string>();
    for (const language of LANGUAGES) {
      const result = await analyser.analyse(await input(language), () => {});
      expect(result.text).toMatch(scripts[language]);
      expect(result.data.colors).toHaveLength(2);
      expect(result.data.pattern.kind).toMatch(scripts[language] === scripts['en-US'] ? /stripes/ : scripts[language]);
      texts.add(result.text);
    }
    expect(texts.size).toBe(5);
    const zh = await analyser.analyse(await input('zh-CN'), () => {});
    expect(zh.data.colors.map((c) => c.name)).toEqual(['红色', '白色']);
    expect(zh.text).toMatch(/克重：180 g\/m²/);
  });

  it('is deterministic', async () => {
    const analyser = createLocalAnalyser({ pauseMs: 0 });
    const a = await analyser.analyse(await input('vi-VN'), () => {});
    const b = await analyser.analyse(await input('vi-VN'), () => {});
    expect(a).toEqual(b);
  });

  it('works with several patterns, with model photos only, and with no images at all', async () => {
    const analyser = createLocalAnalyser({ pauseMs: 0 });
    const two = await analyser.analyse(
      await input('en-US', {
        patternImages: [
          { data: await png(256, 256, verticalStripes(16, RED, WHITE)), mimeType: 'image/png', role: 'pattern' },
          { data: await png(256, 256, checkerboard(32, NAVY, WHITE)), mimeType: 'image/png', role: 'pattern' },
        ],
      }),
      () => {},
    );
    expect(two.text).toMatch(/Pattern image 1: vertical stripes/);
    expect(two.text).toMatch(/Pattern image 2: a check/);
    expect(two.data.colors.map((c) => c.name)).toEqual(expect.arrayContaining(['red', 'white', 'navy']));

    const modelsOnly = await analyser.analyse(await input('en-US', { patternImages: [] }), () => {});
    expect(modelsOnly.text).toMatch(/No pattern image was given/);
    expect(modelsOnly.data.pattern.kind).toBe('');
    expect(modelsOnly.data.colors.length).toBeGreaterThan(0);

    const none = await analyser.analyse(await input('en-US', { patternImages: [], modelImages: [], fabric: {} }), () => {});
    expect(none.text).toMatch(/No images were given/);
    expect(none.data.colors).toEqual([]);
  });

  it('stops with a cancelled ProviderError when the signal aborts mid-stream', async () => {
    const analyser = createLocalAnalyser({ pauseMs: 20 });
    const controller = new AbortController();
    const chunks: string[] = [];
    const pending = analyser.analyse(await input('en-US', { signal: controller.signal }), (c) => {
      chunks.push(c);
      if (chunks.length === 2) controller.abort();
    });
    await expect(pending).rejects.toSatisfy((e: unknown) => e instanceof ProviderError && e.kind === 'cancelled');
    expect(chunks).toHaveLength(2);
  });

  it('fails clearly on an unreadable image', async () => {
    const analyser = createLocalAnalyser({ pauseMs: 0 });
    const bad = await input('en-US', { patternImages: [{ data: Buffer.from('not an image'), mimeType: 'image/png', role: 'pattern' }] });
    await expect(analyser.analyse(bad, () => {})).rejects.toSatisfy((e: unknown) => e instanceof ProviderError && e.kind === 'invalid_request');
  });
});
