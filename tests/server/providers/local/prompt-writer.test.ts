import { describe, expect, it } from 'vitest';
import { CAMERA_MOVES, type Language, type PromptWriterInput } from '../../../../server/providers/capabilities.js';
import { LOCAL_PREVIEW_MODEL } from '../../../../server/providers/local/model-name.js';
import { cameraCommand, cameraMovesInPrompt, createLocalPromptWriter } from '../../../../server/providers/local/prompt-writer.js';
import { RED, WHITE, horizontalStripes, jpeg, modelPhoto, png, verticalStripes } from './test-images.js';

async function input(language: Language, over: Partial<PromptWriterInput> = {}): Promise<PromptWriterInput> {
  return {
    image: { data: await png(256, 256, verticalStripes(16, RED, WHITE)), mimeType: 'image/png', role: 'source' },
    fabric: { fabric_name: 'Riviera Stripe', luster: 'soft', drape: 'fluid' },
    userPrompt: 'Keep the model relaxed',
    count: 3,
    language,
    signal: new AbortController().signal,
    ...over,
  };
}

describe('local prompt writer', () => {
  it('writes three distinct prompts with bracketed camera commands, a scene and a mood', async () => {
    const writer = createLocalPromptWriter();
    const { prompts, model } = await writer.writeVideoPrompts(await input('en-US'));
    expect(model).toBe(LOCAL_PREVIEW_MODEL);
    expect(prompts).toHaveLength(3);
    expect(new Set(prompts.map((p) => p.prompt)).size).toBe(3);
    expect(new Set(prompts.map((p) => p.camera.join())).size).toBe(3);
    for (const p of prompts) {
      expect(p.camera.length).toBeGreaterThan(0);
      expect(p.camera.length).toBeLessThanOrEqual(3);
      for (const move of p.camera) expect(CAMERA_MOVES).toContain(move);
      expect(p.prompt.startsWith(cameraCommand(p.camera))).toBe(true);
      expect(cameraMovesInPrompt(p.prompt)).toEqual(p.camera);
      expect(p.scene).toBeTruthy();
      expect(p.mood).toBeTruthy();
      expect(p.prompt.endsWith(`Mood: ${p.mood}.`)).toBe(true);
    }
    expect(prompts[0]!.prompt).toMatch(/^\[Push in\] Close on Riviera Stripe: vertical stripes in red and white, its soft luster/);
    // Vertical stripes are followed along their length.
    expect(prompts[1]!.camera).toEqual(['Tilt up']);
  });

  it('follows the pattern: horizontal stripes are panned, a portrait image gets a tracking shot', async () => {
    const writer = createLocalPromptWriter();
    const horizontal = await writer.writeVideoPrompts(
      await input('en-US', { image: { data: await png(256, 256, horizontalStripes(16, RED, WHITE)), mimeType: 'image/png', role: 'source' } }),
    );
    expect(horizontal.prompts[1]!.camera).toEqual(['Pan right']);
    const portrait = await writer.writeVideoPrompts(
      await input('en-US', { image: { data: await jpeg(192, 320, modelPhoto(192, 320)), mimeType: 'image/jpeg', role: 'source' } }),
    );
    expect(portrait.prompts[2]!.camera).toEqual(['Tracking shot']);
  });

  it("uses the designer's scene and writes in each language, keeping MiniMax's English commands", async () => {
    const writer = createLocalPromptWriter();
    const expected: Record<Language, RegExp> = {
      'zh-CN': /场景：屋顶花园/,
      'en-US': /Scene: 屋顶花园/,
      'vi-VN': /Bối cảnh: 屋顶花园/,
      'th-TH': /ฉาก: 屋顶花园/,
      'id-ID': /Latar: 屋顶花园/,
    };
    for (const language of Object.keys(expected) as Language[]) {
      const { prompts } = await writer.writeVideoPrompts(await input(language, { fabric: { scene: '屋顶花园' }, userPrompt: '' }));
      expect(prompts).toHaveLength(3);
      for (const p of prompts) {
        expect(p.prompt).toMatch(expected[language]);
        expect(p.prompt).toMatch(/^\[[A-Z][a-z]+( [a-z]+)?(, [A-Z][a-z]+( [a-z]+)?)*\]/);
        expect(p.scene).toBe('屋顶花园');
      }
    }
  });

  it("describes the shot and never carries the image step's instruction", async () => {
    const writer = createLocalPromptWriter();
    // The PWA's default image prompts (the run's prompt, which the job hands over as userPrompt).
    const instructions: Partial<Record<Language, string>> = {
      'en-US':
        'Analyse the model and pattern images with the fabric information, describe the fabric for marketing, and create six candidate images that show it on the model and as a pattern.',
      'zh-CN': '结合面料信息分析模特图和花型图，撰写面料营销描述，并生成六张候选图，展示面料在模特身上的效果和花型效果。',
    };
    for (const [language, instruction] of Object.entries(instructions) as [Language, string][]) {
      const { prompts } = await writer.writeVideoPrompts(await input(language, { userPrompt: instruction }));
      expect(prompts).toHaveLength(3);
      for (const p of prompts) {
        expect(p.prompt).not.toContain(instruction.slice(0, 12));
        expect(p.prompt).not.toMatch(/Analyse|candidate|候选图|分析模特图/);
        // Camera, subject (the fabric's name), scene and mood.
        expect(p.prompt.startsWith(cameraCommand(p.camera))).toBe(true);
        expect(p.prompt).toContain('Riviera Stripe');
        expect(p.prompt).toContain(p.scene);
        expect(p.prompt).toContain(p.mood);
      }
    }
  });

  it('reads camera commands from brackets, single or combined', () => {
    expect(cameraMovesInPrompt('[Truck left, Pan right, Zoom in] a scene [push in]')).toEqual(['Truck left', 'Pan right', 'Zoom in']);
    expect(cameraMovesInPrompt('no brackets')).toEqual([]);
    expect(cameraMovesInPrompt('[Fly away] [Static shot]')).toEqual(['Static shot']);
    expect(cameraCommand(['Truck right', 'Push in'])).toBe('[Truck right, Push in]');
  });
});
