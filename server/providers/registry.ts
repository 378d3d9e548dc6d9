// The implementation serving each capability, as the provider settings chose it: a cloud adapter
// built from its settings, or the built-in engine (passed in, so this module does not depend on
// it), which is a local preview. Only the adapters something is served by are built.
import type { Analyser, CandidateRanker, Enhancer, ImageGenerator, PromptWriter, ProviderCapabilities, ProviderSetupCheck, VideoGenerator } from './capabilities.js';
import { createComfyProvider } from './comfyui/comfyui-provider.js';
import { createGeminiProvider } from './gemini/gemini-provider.js';
import { createKlingVideoGenerator } from './kling/kling-video-generator.js';
import { createMinimaxVideoGenerator } from './minimax/minimax-video-generator.js';
import { createOpenAiProvider } from './openai-compatible/openai-provider.js';
import { type CapabilityName, type CloudProviderId, type ProviderConfig, type ProviderId } from './provider-config.js';

export interface ChosenCapability<T> {
  implementation: T;
  provider: ProviderId;
  /** Served by the built-in engine: say so to the designer. */
  localPreview: boolean;
}

export interface ProviderRegistry {
  analyser: ChosenCapability<Analyser>;
  imageGenerator: ChosenCapability<ImageGenerator>;
  promptWriter: ChosenCapability<PromptWriter>;
  videoGenerator: ChosenCapability<VideoGenerator>;
  enhancer: ChosenCapability<Enhancer>;
  /**
   * Ranks a collection's candidates: the provider serving the analysis, when it has a ranker (a
   * cloud text model that sees images); absent otherwise, the built-in engine included.
   */
  candidateRanker?: ChosenCapability<CandidateRanker>;
  /** The setup checks of the adapters in use (ComfyUI's workflows against its nodes and models). */
  setupChecks: (() => Promise<ProviderSetupCheck>)[];
}

/** An adapter as built here: its capabilities, and a check of its own setup when it has one. */
type BuiltAdapter = ProviderCapabilities & { checkSetup?: () => Promise<ProviderSetupCheck> };

export function createProviderRegistry(config: ProviderConfig, local: ProviderCapabilities): ProviderRegistry {
  const built = new Map<ProviderId, BuiltAdapter>([['local', local]]);
  const adapter = (provider: ProviderId): BuiltAdapter => {
    let capabilities = built.get(provider);
    if (!capabilities) {
      capabilities = buildCloudAdapter(provider as CloudProviderId, config, local);
      built.set(provider, capabilities);
    }
    return capabilities;
  };
  const choose = <K extends keyof ProviderCapabilities>(capability: CapabilityName, slot: K): ChosenCapability<NonNullable<ProviderCapabilities[K]>> => {
    const provider = config.serve[capability];
    const implementation = adapter(provider)[slot];
    // provider-config only chooses adapters that offer the capability; the built-in engine must offer all.
    if (!implementation) throw new Error(`the ${provider} provider has no ${slot}, needed for ${capability}`);
    return { implementation, provider, localPreview: provider === 'local' };
  };
  const chosen = {
    analyser: choose('analyse', 'analyser'),
    imageGenerator: choose('images', 'imageGenerator'),
    promptWriter: choose('prompts', 'promptWriter'),
    videoGenerator: choose('video', 'videoGenerator'),
    enhancer: choose('enhance', 'enhancer'),
  };
  const ranker = adapter(config.serve.analyse).candidateRanker;
  const candidateRanker = ranker ? { implementation: ranker, provider: config.serve.analyse, localPreview: config.serve.analyse === 'local' } : undefined;
  const setupChecks = [...built.values()].flatMap((capabilities) => (capabilities.checkSetup ? [capabilities.checkSetup] : []));
  return { ...chosen, ...(candidateRanker ? { candidateRanker } : {}), setupChecks };
}

function buildCloudAdapter(provider: CloudProviderId, config: ProviderConfig, local: ProviderCapabilities): BuiltAdapter {
  const missing = () => new Error(`${provider} serves a capability but has no settings`);
  switch (provider) {
    case 'gemini': {
      if (!config.gemini) throw missing();
      const { apiKey, baseUrl, textModel, imageModel } = config.gemini;
      return createGeminiProvider({ apiKey, baseUrl, textModel, imageModel });
    }
    case 'openai': {
      if (!config.openai) throw missing();
      const { apiKey, baseUrl, textModel, imageModel } = config.openai;
      return createOpenAiProvider({ apiKey, baseUrl, textModel, imageModel });
    }
    case 'minimax': {
      if (!config.minimax) throw missing();
      const { apiKey, baseUrl, videoModel } = config.minimax;
      return { videoGenerator: createMinimaxVideoGenerator({ apiKey, baseUrl, model: videoModel }) };
    }
    case 'kling': {
      if (!config.kling) throw missing();
      const { accessKey, secretKey, baseUrl, videoModel } = config.kling;
      return { videoGenerator: createKlingVideoGenerator({ accessKey, secretKey, baseUrl, model: videoModel }) };
    }
    case 'comfyui': {
      if (!config.comfyui) throw missing();
      const { baseUrl, token, workflows } = config.comfyui;
      // ComfyUI makes pictures: the workshop's text items go to the built-in engine.
      const comfy = createComfyProvider({ baseUrl, ...(token ? { token } : {}), workflows, ...(local.enhancer ? { textEnhancer: local.enhancer } : {}) });
      return { imageGenerator: comfy.imageGenerator, videoGenerator: comfy.videoGenerator, enhancer: comfy.enhancer, checkSetup: () => comfy.checkSetup() };
    }
  }
}
