// Prompt management's prompts (GET /prompts/, the cache key that page and the video workflow
// share): the settings offer its image prompt to start from. Every signed-in user may read them.
import { useQuery } from '@tanstack/react-query';
import { http, isApiError } from '../../../lib/api';
import type { ApiSchema } from '../../../lib/api/api-types';
import { queryKeys } from '../../../lib/query/query-keys';

export type PromptRow = Pick<ApiSchema<'Prompt'>, 'type' | 'content'>;

export function usePrompts() {
  return useQuery({
    queryKey: queryKeys.prompts.list(),
    queryFn: ({ signal }) => http.get<PromptRow[]>('main', '/prompts/', { signal }),
    meta: { persist: true },
    retry: (count, error) => !(isApiError(error) && (error.status === 403 || error.status === 401)) && count < 2,
  });
}
