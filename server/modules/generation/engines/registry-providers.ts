// The provider registry's choice per capability, as the generation module's slots. The workshop
// also offers the built-in engine next to a cloud enhancer, so a designer can pick it offline.
import type { AppConfig } from '../../../config.js';
import type { ProviderCapabilities } from '../../../providers/capabilities.js';
import { createLocalProvider, type LocalProviderOptions } from '../../../providers/local/index.js';
import { createProviderRegistry, type ChosenCapability, type ProviderRegistry } from '../../../providers/registry.js';
import type { GenerationProviders, ProviderSlot } from './generation-providers.js';

const slot = <T>(chosen: ChosenCapability<T>): ProviderSlot<T> => ({
  impl: chosen.implementation,
  provider: chosen.provider,
  localPreview: chosen.localPreview,
});

export function providersFromRegistry(registry: ProviderRegistry, local: ProviderCapabilities): GenerationProviders {
  const enhancers = [slot(registry.enhancer)];
  if (!registry.enhancer.localPreview && local.enhancer) {
    enhancers.push({ impl: local.enhancer, provider: 'local', localPreview: true });
  }
  return {
    analyser: slot(registry.analyser),
    imageGenerator: slot(registry.imageGenerator),
    promptWriter: slot(registry.promptWriter),
    videoGenerator: slot(registry.videoGenerator),
    enhancers,
    ...(registry.candidateRanker ? { candidateRanker: slot(registry.candidateRanker) } : {}),
    setupChecks: registry.setupChecks,
  };
}

/** What the server offers from its settings: the registry's choices over the built-in engine. */
export function configuredProviders(config: AppConfig, localOptions: LocalProviderOptions = {}): GenerationProviders {
  const local = createLocalProvider(localOptions);
  return providersFromRegistry(createProviderRegistry(config.providers, local), local);
}
