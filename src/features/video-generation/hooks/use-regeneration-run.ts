// Regenerating one candidate image with a new prompt. One request at a time: a new one cancels the
// one running, and the images it already made go with it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelRegeneration, streamRegeneration } from '../api/regenerate-stream';
import { mergeImages } from '../model/draft';
import { withoutImages } from '../model/run-changes';
import { IDLE_RUN, failureMessage, openingRun, type StreamState } from '../model/run-state';
import type { WorkflowInputs } from './workflow-inputs';

interface RegenRun {
  abort: AbortController;
  /** The server's id for the request, once its stream names it: cancel needs it. */
  generationId: string | null;
  /** Images this request made so far. */
  imageIds: number[];
}

export function useRegenerationRun({ update, language }: Pick<WorkflowInputs, 'update' | 'language'>) {
  const { t } = useTranslation();
  const [regen, setRegen] = useState<StreamState>(IDLE_RUN);
  const regenRun = useRef<RegenRun | null>(null);

  const cancelRegen = useCallback(
    (dropImages: boolean) => {
      const run = regenRun.current;
      if (!run) return;
      regenRun.current = null;
      run.abort.abort();
      if (run.generationId !== null) void cancelRegeneration(run.generationId).catch(() => undefined);
      if (dropImages && run.imageIds.length > 0) update((x) => withoutImages(x, run.imageIds));
      setRegen(IDLE_RUN);
    },
    [update],
  );

  const regenerate = useCallback(
    async (imageId: number, prompt: string) => {
      cancelRegen(true);
      const run: RegenRun = { abort: new AbortController(), generationId: null, imageIds: [] };
      regenRun.current = run;
      setRegen(openingRun(t('videoGeneration.progress.connecting'), Date.now()));
      try {
        await streamRegeneration(
          { imageId, prompt, language },
          (e) => {
            if (regenRun.current !== run) return;
            if (e.type === 'connected' || e.type === 'start') run.generationId = e.new_gemini_generation_id;
            else if (e.type === 'progress') setRegen((s) => ({ ...s, progress: Math.max(s.progress, e.progress ?? 0), message: e.message ?? s.message }));
            else if (e.type === 'image_ready' && e.source !== 'original') {
              run.imageIds.push(e.image.id);
              update((x) => ({ ...x, candidates: mergeImages(x.candidates, [{ ...e.image, source: 'regenerated' }]) }));
            } else if (e.type === 'complete') {
              regenRun.current = null;
              setRegen((s) => ({ ...s, running: false, progress: 100, message: t('videoGeneration.progress.completed') }));
            } else if (e.type === 'error') {
              regenRun.current = null;
              setRegen((s) => ({ ...s, running: false, error: e.message ?? t('videoGeneration.errors.regeneration') }));
            }
          },
          run.abort.signal,
        );
      } catch (error) {
        if (regenRun.current !== run) return;
        regenRun.current = null;
        setRegen((s) => ({ ...s, running: false, error: failureMessage(error, t('videoGeneration.errors.regeneration')) }));
      }
    },
    [cancelRegen, language, t, update],
  );

  useEffect(() => () => regenRun.current?.abort.abort(), []);

  return { regen, regenerate, cancelRegen };
}
