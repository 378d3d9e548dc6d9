// GET /models of the upscale service. The raw list is persisted with the query cache, so the last
// good list still renders offline; labels are derived at render time in the current language.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, http } from '../../../lib/api';
import type { RawModel } from '../model/model-catalog';

interface ModelsReply {
  status?: string;
  message?: string;
  models?: RawModel[];
}

export const upscaleModelsKey = ['upscale', 'models'] as const;

export async function fetchUpscaleModels(): Promise<RawModel[]> {
  const reply = await http.get<ModelsReply>('upscale', '/models');
  if (reply?.status !== 'success' || !Array.isArray(reply.models)) {
    throw new ApiError('business', -1, reply?.message ?? 'failed to fetch model list');
  }
  return reply.models;
}

export const upscaleModelsQuery = queryOptions({
  queryKey: upscaleModelsKey,
  queryFn: fetchUpscaleModels,
  staleTime: 5 * 60_000,
  meta: { persist: true },
});

export function useUpscaleModelsQuery() {
  return useQuery(upscaleModelsQuery);
}

/** Spec §8: no answer at all is "cannot connect", anything else "failed to fetch". */
export function modelListErrorKey(error: unknown): 'cannotConnect' | 'fetchFailed' {
  return error instanceof ApiError && error.kind === 'network' ? 'cannotConnect' : 'fetchFailed';
}
