// What the generation module is given for each capability: the implementation, which provider it
// is (the concurrency lane of its jobs, stored with every result) and whether it is the built-in
// engine's local preview. The provider registry (server/providers/registry.ts) fills it from the
// environment; tests pass their own.
import type {
  Analyser,
  CandidateRanker,
  Enhancer,
  ImageGenerator,
  PromptWriter,
  ProviderSetupCheck,
  VideoGenerator,
} from '../../../providers/capabilities.js';
import { AppError } from '../../../http/app-error.js';
import { LOCAL_VIDEO_LANE } from '../../../jobs/job-runner.js';

export interface ProviderSlot<T> {
  impl: T;
  /** 'local', 'gemini', 'openai', 'minimax', 'kling', … */
  provider: string;
  localPreview: boolean;
}

export interface GenerationProviders {
  analyser?: ProviderSlot<Analyser>;
  imageGenerator?: ProviderSlot<ImageGenerator>;
  promptWriter?: ProviderSlot<PromptWriter>;
  videoGenerator?: ProviderSlot<VideoGenerator>;
  /** Every enhancer the workshop offers, the default first. */
  enhancers?: ProviderSlot<Enhancer>[];
  /** Ranks a collection's candidates for its pick rule 'model'; absent: no ranker is configured. */
  candidateRanker?: ProviderSlot<CandidateRanker>;
  /** Setup checks of the providers in use, run once the server is ready (engines-route.ts). */
  setupChecks?: (() => Promise<ProviderSetupCheck>)[];
}

export type CapabilityName = 'analyser' | 'imageGenerator' | 'promptWriter' | 'videoGenerator';

/** The slot serving a capability, or a 503 the user can read when none is configured. */
export function requireSlot<K extends CapabilityName>(
  providers: GenerationProviders,
  name: K,
): NonNullable<GenerationProviders[K]> {
  const slot = providers[name];
  if (!slot) throw new AppError(503, 'generation_unavailable');
  return slot as NonNullable<GenerationProviders[K]>;
}

/** The concurrency lane of a capability's jobs: one per provider, so a slow cloud does not hold the local engine. */
export function laneOf(slot: { provider: string } | undefined): string {
  return slot?.provider ?? 'none';
}

/** The lane of video jobs: the built-in engine's own (job-runner.ts's LOCAL_VIDEO_LANE), else the provider's. */
export function videoLaneOf(slot: { provider: string } | undefined): string {
  return slot?.provider === 'local' ? LOCAL_VIDEO_LANE : laneOf(slot);
}
