// GET /generation/engines: which engine serves each generation capability, and what a
// self-hosted engine's setup check found (ComfyUI: node types and model files it lacks).
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api';
import type { ApiSchema } from '../../../lib/api/api-types';

export type GenerationEngines = ApiSchema<'GenerationEngines'>;
export type EngineCapability = keyof GenerationEngines['capabilities'];
/** The order the settings page lists them in. */
export const ENGINE_CAPABILITIES: readonly EngineCapability[] = [
  'analyse',
  'images',
  'prompts',
  'video',
  'enhance',
];

export function useGenerationEngines() {
  return useQuery({
    queryKey: ['generation', 'engines'],
    queryFn: ({ signal }) => http.get<GenerationEngines>('main', '/generation/engines', { signal }),
    staleTime: 60_000,
  });
}
