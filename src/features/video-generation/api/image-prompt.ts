// The image prompt from prompt management (GET /prompts/, shared cache key with that page). Only
// ADMIN may read prompt management; for others (403) the page offers its own default prompt.
import { useQuery } from '@tanstack/react-query';
import { http, isApiError } from '../../../lib/api';
import { queryKeys } from '../../../lib/query/query-keys';

interface PromptRow {
  type: string;
  content: string;
}

export function useImagePrompts() {
  return useQuery({
    queryKey: queryKeys.prompts.list(),
    queryFn: ({ signal }) => http.get<PromptRow[]>('main', '/prompts/', { signal }),
    meta: { persist: true },
    retry: (count, error) => !(isApiError(error) && (error.status === 403 || error.status === 401)) && count < 2,
  });
}
