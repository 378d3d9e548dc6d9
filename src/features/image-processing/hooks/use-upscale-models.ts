// The model picker's data: the service's list with spec §5 labels in the current language.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { modelListErrorKey, useUpscaleModelsQuery } from '../api/get-upscale-models';
import { buildCatalog, type UpscaleModel } from '../model/model-catalog';

export interface UpscaleModels {
  models: UpscaleModel[];
  loading: boolean;
  /** Set when the last fetch failed; models may still hold the last good list. */
  errorKey: 'cannotConnect' | 'fetchFailed' | null;
  fromCache: boolean;
  retry(): void;
  retrying: boolean;
}

export function useUpscaleModels(): UpscaleModels {
  const { t } = useTranslation();
  const query = useUpscaleModelsQuery();
  // t changes with the interface language, and the labels with it.
  const models = useMemo(
    () => (query.data ? buildCatalog(query.data, (key, values) => t(key, values ?? {})) : []),
    [query.data, t],
  );
  const { isPending, error, data, isFetching, refetch } = query;
  // One object while nothing in it changes: the page's setup panel skips its render on every
  // queue snapshot of a running batch only if its props stay the same.
  return useMemo(
    () => ({
      models,
      loading: isPending,
      errorKey: error ? modelListErrorKey(error) : null,
      fromCache: !!data && !!error,
      retry: () => void refetch(),
      retrying: isFetching,
    }),
    [models, isPending, error, data, isFetching, refetch],
  );
}
