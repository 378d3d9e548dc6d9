// The analysis of the prompt step: its text and candidate images arrive on a stream and go into the
// draft as they come. A cut or reloaded analysis is recovered through /user/image-requests, or
// joined again by resending the same request_id.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { withRetry } from '../../../lib/retry/with-retry';
import { cancelAnalysis, fetchImageRequests, streamAnalysis, type AnalyzeEvent } from '../api/analyze-stream';
import { mergeImages, newRequestId, placeStreamed } from '../model/draft';
import { fabricInfo } from '../model/fabric-form';
import type { ImageRequestView } from '../model/generation-types';
import { completedImages, withFinishedAnalysis, withNewAnalysis } from '../model/run-changes';
import { IDLE_RUN, failureMessage, openingRun, reconnectingRun, type StreamState } from '../model/run-state';
import type { WorkflowInputs } from './workflow-inputs';

export function useAnalysisRun({ read, update, language, presetLabel }: WorkflowInputs) {
  const { t } = useTranslation();
  const [analysis, setAnalysis] = useState<StreamState>(IDLE_RUN);
  const analysisAbort = useRef<AbortController | null>(null);

  const applyRequest = useCallback(
    (view: ImageRequestView) => {
      update((d) => withFinishedAnalysis(d, view));
      setAnalysis((s) => ({ ...s, running: false, progress: 100, message: t('videoGeneration.progress.completed'), retryInMs: null }));
    },
    [t, update],
  );

  const runAnalysis = useCallback(
    async (requestId: string) => {
      const d = read();
      if (!d) return;
      analysisAbort.current?.abort();
      const abort = new AbortController();
      analysisAbort.current = abort;
      setAnalysis(openingRun(t('videoGeneration.progress.connecting'), Date.now()));
      let finished = false;
      const onEvent = (e: AnalyzeEvent) => {
        if (e.type === 'streaming') {
          update((x) => ({ ...x, analysisText: placeStreamed(x.analysisText, e.content, e.offset) }));
        } else if (e.type === 'streaming_reset') {
          update((x) => ({ ...x, analysisText: '' }));
        } else if (e.type === 'progress') {
          setAnalysis((s) => ({
            ...s,
            progress: Math.max(s.progress, e.progress ?? 0),
            message: e.message ?? s.message,
            retryInMs: e.retry_in_ms ?? null,
          }));
          const image = e.image;
          if (e.stage === 'image_ready' && image) update((x) => ({ ...x, candidates: mergeImages(x.candidates, [image]) }));
        } else if (e.type === 'complete') {
          finished = true;
          applyRequest(e.data);
        } else if (e.type === 'error') {
          finished = true;
          setAnalysis((s) => ({ ...s, running: false, error: e.message ?? t('videoGeneration.errors.analysis') }));
        }
      };
      const input = {
        requestId,
        prompt: d.promptText.trim(),
        description: d.description,
        language,
        fabricInfo: fabricInfo(d.form, presetLabel),
        modelImages: d.files.filter((f) => f.role === 'model').map((f) => f.blob),
        patternImages: d.files.filter((f) => f.role === 'pattern').map((f) => f.blob),
      };
      // One attempt: the stream, and when it ends before its last event (the connection was cut),
      // the request as the server has it. Still running: throw a network failure so the policy
      // opens the stream again with the same request id, which joins the same work.
      const attempt = async () => {
        const outcome = await streamAnalysis(input, onEvent, abort.signal);
        if (outcome === 'cancelled' || finished) return;
        const [view] = await fetchImageRequests([requestId], abort.signal);
        if (view?.status === 'completed') {
          finished = true;
          applyRequest(view);
          return;
        }
        if (view?.status === 'failed') {
          finished = true;
          setAnalysis((s) => ({ ...s, running: false, error: view.error?.message ?? t('videoGeneration.errors.analysis') }));
          return;
        }
        if (view) update((x) => ({ ...x, candidates: mergeImages(x.candidates, completedImages(view)) }));
        throw new ApiError('network', 0, t('errors.network'));
      };
      try {
        await withRetry(attempt, {
          signal: abort.signal,
          onRetry: (streak) => setAnalysis((s) => reconnectingRun(s, streak, t('videoGeneration.progress.reconnecting'), Date.now())),
        });
      } catch (error) {
        if (abort.signal.aborted) return;
        setAnalysis((s) => ({ ...s, running: false, error: failureMessage(error, t('videoGeneration.errors.analysis')) }));
      }
    },
    [applyRequest, language, presetLabel, read, t, update],
  );

  /** Looks the request up on the server; true when it is finished (applied or failed). */
  const recoverAnalysis = useCallback(
    async (requestId: string, signal: AbortSignal): Promise<boolean> => {
      const [view] = await fetchImageRequests([requestId], signal);
      if (view?.status === 'completed') {
        applyRequest(view);
        return true;
      }
      if (view?.status === 'failed') {
        setAnalysis((s) => ({ ...s, running: false, error: view.error?.message ?? t('videoGeneration.errors.analysis') }));
        return true;
      }
      if (view) update((x) => ({ ...x, candidates: mergeImages(x.candidates, completedImages(view)) }));
      // Still running: join it again with the same request id.
      void runAnalysis(requestId);
      return false;
    },
    [applyRequest, runAnalysis, t, update],
  );

  const startAnalysis = useCallback(() => {
    const d = read();
    if (!d) return;
    const requestId = newRequestId();
    update((x) => withNewAnalysis(x, requestId));
    void runAnalysis(requestId);
  }, [read, runAnalysis, update]);

  const retryAnalysis = useCallback(() => {
    const id = read()?.requestId;
    if (id) void runAnalysis(id);
  }, [read, runAnalysis]);

  const cancelAnalysisRun = useCallback(() => {
    const id = read()?.requestId;
    analysisAbort.current?.abort();
    analysisAbort.current = null;
    if (id) void cancelAnalysis(id).catch(() => undefined);
    setAnalysis(IDLE_RUN);
    update((x) => ({ ...x, step: 'prompt', requestId: null, analysisStarted: false }));
  }, [read, update]);

  /** After a reload: the server's answer first; if it cannot be asked, the stream again. */
  const resumeAnalysis = useCallback(
    (requestId: string) => {
      setAnalysis(openingRun(t('videoGeneration.progress.connecting'), Date.now()));
      const abort = new AbortController();
      analysisAbort.current = abort;
      void recoverAnalysis(requestId, abort.signal).catch(() => runAnalysis(requestId));
    },
    [recoverAnalysis, runAnalysis, t],
  );

  useEffect(() => () => analysisAbort.current?.abort(), []);

  return { analysis, startAnalysis, retryAnalysis, cancelAnalysis: cancelAnalysisRun, resumeAnalysis };
}
