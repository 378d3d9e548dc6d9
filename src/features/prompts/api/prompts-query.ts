// GET /prompts/: the three prompts. Persisted (meta.persist) so the page renders offline.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api';
import { queryKeys } from '../../../lib/query/query-keys';
import type { Prompt } from '../model/prompt';

export function fetchPrompts(signal?: AbortSignal): Promise<Prompt[]> {
  return http.get<Prompt[]>('main', '/prompts/', { signal });
}

export const promptsQuery = () =>
  queryOptions({
    queryKey: queryKeys.prompts.list(),
    queryFn: ({ signal }) => fetchPrompts(signal),
    meta: { persist: true },
  });

export function usePrompts() {
  return useQuery(promptsQuery());
}
