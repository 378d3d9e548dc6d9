// Provider settings and the registry: which implementation serves each capability for a given
// environment, and the messages a bad setting stops the server with.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../server/config.js';
import type { ProviderCapabilities } from '../../../../server/providers/capabilities.js';
import { DEFAULT_MODELS, readProviderConfig } from '../../../../server/providers/provider-config.js';
import { createProviderRegistry } from '../../../../server/providers/registry.js';

/** Stand-ins for the built-in engine (which ranks no candidates): the registry only hands them out, it never calls them. */
const local: Required<Omit<ProviderCapabilities, 'candidateRanker'>> = {
  analyser: { analyse: () => Promise.reject(new Error('not called')) },
  imageGenerator: { generateImages: () => Promise.reject(new Error('not called')) },
  promptWriter: { writeVideoPrompts: () => Promise.reject(new Error('not called')) },
  videoGenerator: { startVideo: () => Promise.reject(new Error('not called')), pollVideo: () => Promise.reject(new Error('not called')), pollIntervalMs: 500 },
  enhancer: { enhance: () => Promise.reject(new Error('not called')) },
};

function configError(env: Record<string, string>): string {
  try {
    readProviderConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('provider settings', () => {
  it('refuses at start an OpenAI image model that cannot edit images, naming the models that can', () => {
    const message = configError({ OPENAI_API_KEY: 'sk', OPENAI_IMAGE_MODEL: 'dall-e-3' });
    expect(message).toMatch(/OPENAI_IMAGE_MODEL: dall-e-3 cannot edit images/);
    expect(message).toMatch(/gpt-image-2\.5-sunburst/);
    expect(message).toMatch(/gpt-image-1\.5/);
    // The same behind a gateway: dall-e-3 is known not to edit.
    expect(configError({ OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: 'http://gateway.lan/v1', OPENAI_IMAGE_MODEL: 'dall-e-3' })).toMatch(/dall-e-3/);
    // On OpenAI itself an unknown name is refused too; a gateway may name its models as it likes.
    expect(configError({ OPENAI_API_KEY: 'sk', OPENAI_IMAGE_MODEL: 'flux-dev' })).toMatch(/flux-dev cannot edit images/);
    expect(readProviderConfig({ OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: 'http://gateway.lan/v1', OPENAI_IMAGE_MODEL: 'flux-dev' }).openai?.imageModel).toBe('flux-dev');
    for (const model of ['gpt-image-2.5-sunburst', 'gpt-image-2.5-flare-2026-09-08', 'gpt-image-1.5', 'gpt-image-1-mini', 'gpt-image-2', 'chatgpt-image-latest']) {
      expect(readProviderConfig({ OPENAI_API_KEY: 'sk', OPENAI_IMAGE_MODEL: model }).openai?.imageModel).toBe(model);
    }
  });

  it('refuses at start, on OpenAI itself, the image models OpenAI no longer serves, naming the successors', () => {
    const shutDown = configError({ OPENAI_API_KEY: 'sk', OPENAI_IMAGE_MODEL: 'gpt-image-1' });
    expect(shutDown).toMatch(/OPENAI_IMAGE_MODEL: gpt-image-1 was shut down on 23 Oct 2026/);
    expect(shutDown).toMatch(/gpt-image-2\.5-sunburst, gpt-image-2\.5-flare/);
    expect(configError({ OPENAI_API_KEY: 'sk', OPENAI_IMAGE_MODEL: 'dall-e-2' })).toMatch(/dall-e-2 was retired on 12 May 2026/);
    // A gateway may still serve them.
    for (const model of ['gpt-image-1', 'dall-e-2']) {
      expect(readProviderConfig({ OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: 'http://gateway.lan/v1', OPENAI_IMAGE_MODEL: model }).openai?.imageModel).toBe(model);
    }
    // The default passes the same check.
    expect(readProviderConfig({ OPENAI_API_KEY: 'sk', OPENAI_IMAGE_MODEL: DEFAULT_MODELS.openaiImage }).openai?.imageModel).toBe('gpt-image-2.5-sunburst');
  });

  it('serves everything locally without keys', () => {
    const config = readProviderConfig({});
    expect(config.serve).toEqual({ analyse: 'local', images: 'local', prompts: 'local', video: 'local', enhance: 'local' });
    const registry = createProviderRegistry(config, local);
    expect(registry.analyser).toEqual({ implementation: local.analyser, provider: 'local', localPreview: true });
    expect(registry.imageGenerator.implementation).toBe(local.imageGenerator);
    expect(registry.promptWriter.implementation).toBe(local.promptWriter);
    expect(registry.videoGenerator).toEqual({ implementation: local.videoGenerator, provider: 'local', localPreview: true });
    expect(registry.enhancer.provider).toBe('local');
    // The built-in engine ranks no candidates: a collection's model pick falls back to the score.
    expect(registry.candidateRanker).toBeUndefined();
  });

  it('gives a configured adapter the capabilities it offers, and leaves the rest local', () => {
    const config = readProviderConfig({ GEMINI_API_KEY: 'g-key' });
    expect(config.gemini).toEqual({ apiKey: 'g-key', baseUrl: undefined, textModel: 'gemini-2.5-flash', imageModel: 'gemini-2.5-flash-image' });
    expect(config.serve).toEqual({ analyse: 'gemini', images: 'gemini', prompts: 'gemini', video: 'local', enhance: 'gemini' });
    const registry = createProviderRegistry(config, local);
    expect(registry.analyser.provider).toBe('gemini');
    expect(registry.analyser.localPreview).toBe(false);
    expect(typeof registry.analyser.implementation.analyse).toBe('function');
    expect(registry.analyser.implementation).not.toBe(local.analyser);
    expect(registry.videoGenerator.implementation).toBe(local.videoGenerator);
  });

  it('picks the first configured adapter in the order gemini, openai, minimax, kling', () => {
    const config = readProviderConfig({ OPENAI_API_KEY: 'sk', GEMINI_API_KEY: 'g', KLING_ACCESS_KEY: 'ak', KLING_SECRET_KEY: 'sk2', MINIMAX_API_KEY: 'mm' });
    expect(config.serve).toEqual({ analyse: 'gemini', images: 'gemini', prompts: 'gemini', video: 'minimax', enhance: 'gemini' });
    const only = readProviderConfig({ KLING_ACCESS_KEY: 'ak', KLING_SECRET_KEY: 'sk2' });
    expect(only.serve.video).toBe('kling');
    expect(only.kling).toEqual({ accessKey: 'ak', secretKey: 'sk2', baseUrl: 'https://api-singapore.klingai.com', videoModel: 'kling-v2-1' });
    const registry = createProviderRegistry(only, local);
    expect(registry.videoGenerator).toMatchObject({ provider: 'kling', localPreview: false });
    expect(registry.videoGenerator.implementation.supportedDurations?.standard?.['1080P']).toEqual([5, 10]);
  });

  it('honours explicit GENERATION_* choices, local included', () => {
    const config = readProviderConfig({
      GEMINI_API_KEY: 'g',
      OPENAI_API_KEY: 'sk',
      MINIMAX_API_KEY: 'mm',
      GENERATION_ANALYSE: 'openai',
      GENERATION_IMAGES: 'local',
      GENERATION_ENHANCE: 'openai',
    });
    expect(config.serve).toEqual({ analyse: 'openai', images: 'local', prompts: 'gemini', video: 'minimax', enhance: 'openai' });
    const registry = createProviderRegistry(config, local);
    expect(registry.analyser.provider).toBe('openai');
    expect(registry.imageGenerator).toMatchObject({ provider: 'local', localPreview: true });
    expect(registry.videoGenerator.implementation.supportedDurations?.standard?.['512P']).toEqual([6, 10]);
    // The candidates are ranked by the provider serving the analysis, not the prompts' one.
    expect(registry.candidateRanker).toMatchObject({ provider: 'openai', localPreview: false });
    expect(typeof registry.candidateRanker?.implementation.rankCandidates).toBe('function');
    const analysedLocally = createProviderRegistry(readProviderConfig({ GEMINI_API_KEY: 'g', GENERATION_ANALYSE: 'local' }), local);
    expect(analysedLocally.promptWriter.provider).toBe('gemini');
    expect(analysedLocally.candidateRanker).toBeUndefined();
  });

  it('gives OpenAI an image model by default only on OpenAI itself', () => {
    expect(readProviderConfig({ OPENAI_API_KEY: 'sk' }).openai?.imageModel).toBe('gpt-image-2.5-sunburst');
    const lan = readProviderConfig({ OPENAI_API_KEY: 'ollama', OPENAI_BASE_URL: 'http://192.168.1.20:11434/v1', OPENAI_TEXT_MODEL: 'qwen2.5vl' });
    expect(lan.openai).toEqual({ apiKey: 'ollama', baseUrl: 'http://192.168.1.20:11434/v1', textModel: 'qwen2.5vl', imageModel: undefined });
    // The LAN box serves the text side; images stay local.
    expect(lan.serve).toMatchObject({ analyse: 'openai', prompts: 'openai', enhance: 'openai', images: 'local' });
    expect(configError({ OPENAI_API_KEY: 'ollama', OPENAI_BASE_URL: 'http://10.0.0.2:11434/v1', GENERATION_IMAGES: 'openai' })).toMatch(
      /GENERATION_IMAGES: openai does not offer images; it offers analyse, prompts, enhance \(set OPENAI_IMAGE_MODEL/,
    );
  });

  it('stops with a clear message naming each bad setting', () => {
    expect(configError({ GENERATION_VIDEO: 'sora' })).toBe(
      'Invalid configuration:\n  GENERATION_VIDEO: must be one of local, gemini, openai, minimax, kling, comfyui',
    );
    expect(configError({ GENERATION_ANALYSE: 'gemini' })).toMatch(/GENERATION_ANALYSE: gemini needs GEMINI_API_KEY/);
    expect(configError({ GEMINI_API_KEY: 'g', GENERATION_VIDEO: 'gemini', GENERATION_PROMPTS: 'kling' })).toMatch(
      /GENERATION_PROMPTS: kling needs KLING_ACCESS_KEY and KLING_SECRET_KEY\n {2}GENERATION_VIDEO: gemini does not offer video; it offers analyse, images, prompts, enhance/,
    );
    expect(configError({ MINIMAX_API_KEY: 'mm', GENERATION_ANALYSE: 'minimax' })).toMatch(/GENERATION_ANALYSE: minimax does not offer analyse; it offers video/);
    expect(configError({ KLING_ACCESS_KEY: 'ak' })).toMatch(/KLING_SECRET_KEY: required when KLING_ACCESS_KEY is set/);
    expect(configError({ GEMINI_BASE_URL: 'generativelanguage.googleapis.com' })).toMatch(/GEMINI_BASE_URL: must be an http:\/\/ or https:\/\/ URL/);
  });

  it('ComfyUI: COMFYUI_URL with the shipped workflows serves images, video and the workshop; the text stays local', () => {
    const config = readProviderConfig({ COMFYUI_URL: 'http://192.168.1.30:8188', COMFYUI_TOKEN: 'proxy', GENERATION_IMAGES: 'comfyui', GENERATION_VIDEO: 'comfyui', GENERATION_ENHANCE: 'comfyui' });
    expect(config.serve).toEqual({ analyse: 'local', images: 'comfyui', prompts: 'local', video: 'comfyui', enhance: 'comfyui' });
    expect(config.comfyui?.token).toBe('proxy');
    expect(config.comfyui?.workflows.video).toMatch(/comfyui\/workflows\/video\.json$/);
    const registry = createProviderRegistry(config, local);
    expect(registry.imageGenerator).toMatchObject({ provider: 'comfyui', localPreview: false });
    expect(registry.videoGenerator.implementation.cancelVideo).toBeTypeOf('function');
    expect(registry.setupChecks).toHaveLength(1);
    // A cloud key next to it wins by default; ComfyUI serves what nothing else offers.
    expect(readProviderConfig({ COMFYUI_URL: 'http://gpu.lan:8188', GEMINI_API_KEY: 'g' }).serve).toMatchObject({ images: 'gemini', video: 'comfyui' });
  });

  it('ComfyUI: a missing URL, a missing workflow file or one without the titles it needs stops the server, naming the variable', () => {
    expect(configError({ GENERATION_VIDEO: 'comfyui' })).toMatch(/GENERATION_VIDEO: comfyui needs COMFYUI_URL/);
    expect(configError({ COMFYUI_URL: 'http://gpu.lan:8188', GENERATION_ANALYSE: 'comfyui' })).toMatch(/GENERATION_ANALYSE: comfyui does not offer analyse; it offers images, video, enhance/);
    expect(configError({ COMFYUI_URL: 'http://gpu.lan:8188', COMFYUI_WORKFLOW_VIDEO: '/nowhere/wan.json' })).toMatch(/COMFYUI_WORKFLOW_VIDEO: cannot read \/nowhere\/wan\.json/);
    const dir = mkdtempSync(path.join(tmpdir(), 'comfy-workflow-'));
    const untitled = path.join(dir, 'untitled.json');
    writeFileSync(untitled, JSON.stringify({ '1': { class_type: 'LoadImage', inputs: { image: 'a.png' }, _meta: { title: 'Load Image' } } }));
    expect(configError({ COMFYUI_URL: 'http://gpu.lan:8188', COMFYUI_WORKFLOW_IMAGES: untitled })).toMatch(
      /COMFYUI_WORKFLOW_IMAGES: .*untitled\.json: no node titled "image", "prompt", "output"/,
    );
    const ui = path.join(dir, 'ui.json');
    writeFileSync(ui, JSON.stringify({ nodes: [], links: [] }));
    expect(configError({ COMFYUI_URL: 'http://gpu.lan:8188', COMFYUI_WORKFLOW_VIDEO_FIRST_LAST: ui })).toMatch(/COMFYUI_WORKFLOW_VIDEO_FIRST_LAST: .*is a UI workflow; export it with "Export \(API\)"/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is part of the server configuration, with the same error', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/loom-provider-config-test', MINIMAX_API_KEY: 'mm', MINIMAX_BASE_URL: 'https://api.minimaxi.com' });
    expect(config.providers.minimax).toEqual({ apiKey: 'mm', baseUrl: 'https://api.minimaxi.com', videoModel: 'MiniMax-Hailuo-02' });
    expect(config.providers.serve.video).toBe('minimax');
    expect(() => loadConfig({ DATA_DIR: '/tmp/loom-provider-config-test', GENERATION_ENHANCE: 'kling' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: '/tmp/loom-provider-config-test', GENERATION_ENHANCE: 'kling' })).toThrow(/GENERATION_ENHANCE: kling needs/);
  });
});
