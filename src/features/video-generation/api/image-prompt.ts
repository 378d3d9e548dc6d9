// The image prompt from prompt management (GET /prompts/, shared cache key with that page). Every
// signed-in user may read it; without one (none saved yet, or offline with nothing cached) the
// page offers its own default prompt.
import { useQuery } from '@tanstack/react-query';
import { http, isApiError } from '../../../lib/api';
import type { ApiSchema } from '../../../lib/api/api-types';
import { queryKeys } from '../../../lib/query/query-keys';

type PromptRow = Pick<ApiSchema<'Prompt'>, 'type' | 'content'>;

export function useImagePrompts() {
  return useQuery({
    queryKey: queryKeys.prompts.list(),
    queryFn: ({ signal }) => http.get<PromptRow[]>('main', '/prompts/', { signal }),
    meta: { persist: true },
    retry: (count, error) => !(isApiError(error) && (error.status === 403 || error.status === 401)) && count < 2,
  });
}
