// The generation service's providers for the ComfyUI suites: ComfyUI (the protocol double) for
// images, video and enhancing, with fast polls; the built-in engine for the text. Each call is the
// providers of one app start (a restart takes fresh ones); closers collects what the suite closes.
import type { GenerationProviders } from '../../../../server/modules/generation/engines/generation-providers.js';
import { createComfyProvider } from '../../../../server/providers/comfyui/comfyui-provider.js';
import { SHIPPED_WORKFLOWS } from '../../../../server/providers/comfyui/comfyui-workflow.js';
import { createLocalProvider } from '../../../../server/providers/local/index.js';

export function comfyProviders(baseUrl: string, clientId: string, closers: (() => void)[]): GenerationProviders {
  const local = createLocalProvider({ textPauseMs: 0 });
  const comfy = createComfyProvider({
    baseUrl,
    workflows: {
      images: SHIPPED_WORKFLOWS.images,
      enhance: SHIPPED_WORKFLOWS.images,
      video: SHIPPED_WORKFLOWS.video,
      videoFirstLast: SHIPPED_WORKFLOWS['video-first-last-frame'],
    },
    clientId,
    timing: { fallbackPollMs: 20, checkEveryMs: 60_000 },
    pollIntervalMs: 15,
    reconnectMs: 20,
  });
  closers.push(() => comfy.close());
  const slot = <T>(impl: T, provider: string) => ({ impl, provider, localPreview: provider === 'local' });
  return {
    analyser: slot(local.analyser, 'local'),
    imageGenerator: slot(comfy.imageGenerator, 'comfyui'),
    promptWriter: slot(local.promptWriter, 'local'),
    videoGenerator: slot(comfy.videoGenerator, 'comfyui'),
    enhancers: [slot(comfy.enhancer, 'comfyui'), slot(local.enhancer, 'local')],
    setupChecks: [() => comfy.checkSetup()],
  };
}
