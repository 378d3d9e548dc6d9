// The provider registry's choice per capability, as the generation module's slots. The workshop
// also offers the built-in engine next to a cloud enhancer, so a designer can pick it offline.
import type { ProviderCapabilities } from '../../providers/capabilities.js';
import type { ChosenCapability, ProviderRegistry } from '../../providers/registry.js';
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
  };
}
