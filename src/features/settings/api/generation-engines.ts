// GET /generation/engines: which engine serves each generation capability, and what a
// self-hosted engine's setup check found (ComfyUI: node types and model files it lacks).
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api';

export const ENGINE_CAPABILITIES = ['analyse', 'images', 'prompts', 'video', 'enhance'] as const;
export type EngineCapability = (typeof ENGINE_CAPABILITIES)[number];

export interface GenerationEngines {
  capabilities: Record<EngineCapability, { provider: string; local_preview: boolean } | null>;
  checks: { provider: string; reachable: boolean; problems: string[]; checked_at: string }[];
}

export function useGenerationEngines() {
  return useQuery({
    queryKey: ['generation', 'engines'],
    queryFn: ({ signal }) => http.get<GenerationEngines>('main', '/generation/engines', { signal }),
    staleTime: 60_000,
  });
}
