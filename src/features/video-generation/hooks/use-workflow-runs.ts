// The long work of the workflow: the analysis stream, regeneration, video prompts and videos.
// Results go into the draft as they arrive (so a reload keeps them); what a reload cannot keep
// (progress, elapsed time, open streams) is state here, and a reload picks the work up again:
// a cut or reloaded analysis is recovered through /user/image-requests or joined by resending
// the same request_id; running videos are followed again by their ids.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ApiError, isApiError } from '../../../lib/api';
import { withRetry, RetryGaveUp } from '../../../lib/retry/with-retry';
import { cancelAnalysis, fetchImageRequests, streamAnalysis, type AnalyzeEvent } from '../api/analyze-stream';
import { cancelRegeneration, streamRegeneration } from '../api/regenerate-stream';
import { createVideos, cancelVideo, fetchVideo, retryVideo, streamVideoProgress } from '../api/video-generations';
import { fetchImageDetail } from '../api/history-source';
import { streamVideoPrompts, saveVideoPrompt } from '../api/video-prompts-stream';
import {
  defaultPromptIds,
  mergeImages,
  mergeVideos,
  newRequestId,
  placeStreamed,
  promptsFromServer,
  type VideoDraft,
} from '../model/draft';
import { fabricInfo, type ChoiceField } from '../model/fabric-form';
import { DEFAULT_VIDEO_SETTINGS, isFinished, type ImageRequestView, type VideoSpecBody, type VideoView } from '../model/generation-types';
import { furthestOf, type StepId } from '../model/workflow-steps';
import type { DraftUpdate } from './use-video-draft';

export interface StreamState {
  running: boolean;
  progress: number;
  message: string;
  startedAt: number | null;
  retryInMs: number | null;
  error: string | null;
}

const IDLE: StreamState = { running: false, progress: 0, message: '', startedAt: null, retryInMs: null, error: null };

function messageOf(error: unknown, fallback: string): string {
  const inner = error instanceof RetryGaveUp ? error.lastError : error;
  if (isApiError(inner) || inner instanceof Error) return inner.message || fallback;
  return fallback;
}

function goTo(step: StepId) {
  return (d: VideoDraft): VideoDraft => ({ ...d, step, furthest: furthestOf(d.furthest, step) });
}

/** `read` gives the draft with every change so far (a render may not have happened yet). */
export function useWorkflowRuns(draft: VideoDraft | null, update: DraftUpdate, read: () => VideoDraft | null) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'zh-CN';
  const [analysis, setAnalysis] = useState<StreamState>(IDLE);
  const [regen, setRegen] = useState<StreamState>(IDLE);
  const [prompts, setPrompts] = useState<StreamState>(IDLE);
  const [videosBusy, setVideosBusy] = useState<StreamState>(IDLE);
  /** Video prompts as they are written, by image, until the saved ones arrive (not kept in the draft). */
  const [promptDrafts, setPromptDrafts] = useState<Record<number, string[]>>({});
  const analysisAbort = useRef<AbortController | null>(null);
  const regenRun = useRef<{ abort: AbortController; generationId: number | null; imageIds: number[] } | null>(null);
  const promptsAbort = useRef<AbortController | null>(null);
  const followAbort = useRef<AbortController | null>(null);
  const resumed = useRef(false);

  const presetLabel = useCallback(
    (field: ChoiceField, key: string) => t(`videoGeneration.presets.${field}.${key}`),
    [t],
  );

  // ---- analysis ---------------------------------------------------------------------------

  const applyRequest = useCallback(
    (view: ImageRequestView) => {
      update((d) =>
        goTo('select')({
          ...d,
          analysisText: view.analysis_text ?? d.analysisText,
          analysisModel: view.model ?? d.analysisModel,
          candidates: mergeImages(d.candidates, view.images.filter((i) => i.status === 'completed')),
          candidatesNotice: view.candidates?.message ?? null,
        }),
      );
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
      setAnalysis({ ...IDLE, running: true, progress: 1, message: t('videoGeneration.progress.connecting'), startedAt: Date.now() });
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
        if (view) update((x) => ({ ...x, candidates: mergeImages(x.candidates, view.images.filter((i) => i.status === 'completed')) }));
        throw new ApiError('network', 0, t('errors.network'));
      };
      try {
        await withRetry(attempt, {
          signal: abort.signal,
          onRetry: (streak) =>
            setAnalysis((s) => ({ ...s, retryInMs: Math.max(1000, streak.nextAttemptAt - Date.now()), message: t('videoGeneration.progress.reconnecting') })),
        });
      } catch (error) {
        if (abort.signal.aborted) return;
        setAnalysis((s) => ({ ...s, running: false, error: messageOf(error, t('videoGeneration.errors.analysis')) }));
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
      if (view) update((x) => ({ ...x, candidates: mergeImages(x.candidates, view.images.filter((i) => i.status === 'completed')) }));
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
    update((x) =>
      goTo('images')({ ...x, requestId, analysisStarted: true, analysisText: '', analysisModel: null, candidates: [], candidatesNotice: null, selectedImageIds: [] }),
    );
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
    setAnalysis(IDLE);
    update((x) => ({ ...x, step: 'prompt', requestId: null, analysisStarted: false }));
  }, [read, update]);

  // ---- regeneration -------------------------------------------------------------------------

  const cancelRegen = useCallback(
    (dropImages: boolean) => {
      const run = regenRun.current;
      if (!run) return;
      regenRun.current = null;
      run.abort.abort();
      if (run.generationId !== null) void cancelRegeneration(run.generationId).catch(() => undefined);
      if (dropImages && run.imageIds.length > 0) {
        const gone = new Set(run.imageIds);
        update((x) => ({
          ...x,
          candidates: x.candidates.filter((c) => !gone.has(c.id)),
          selectedImageIds: x.selectedImageIds.filter((id) => !gone.has(id)),
        }));
      }
      setRegen(IDLE);
    },
    [update],
  );

  const regenerate = useCallback(
    async (imageId: number, prompt: string) => {
      // A new request cancels the previous one, and its images go with it.
      cancelRegen(true);
      const run = { abort: new AbortController(), generationId: null as number | null, imageIds: [] as number[] };
      regenRun.current = run;
      setRegen({ ...IDLE, running: true, progress: 1, message: t('videoGeneration.progress.connecting'), startedAt: Date.now() });
      try {
        await streamRegeneration(
          { imageId, prompt, language },
          (e) => {
            if (regenRun.current !== run) return;
            if (e.type === 'connected' || e.type === 'start') run.generationId = e.new_gemini_generation_id ?? run.generationId;
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
        setRegen((s) => ({ ...s, running: false, error: messageOf(error, t('videoGeneration.errors.regeneration')) }));
      }
    },
    [cancelRegen, language, t, update],
  );

  // ---- video prompts ------------------------------------------------------------------------

  const createFromDraft = useCallback(
    async (d: VideoDraft, promptIds: number[]) => {
      const items: VideoSpecBody[] = promptIds.flatMap((pid) => {
        const p = d.videoPrompts.find((x) => x.id === pid);
        if (!p) return [];
        const s = d.settings[p.imageId] ?? DEFAULT_VIDEO_SETTINGS;
        const lastFrame = s.kind === 'first-last-frame' && s.lastImageId !== null;
        return [
          {
            image_id: p.imageId,
            kind: lastFrame ? 'first-last-frame' : 'standard',
            ...(lastFrame ? { last_image_id: s.lastImageId ?? undefined } : {}),
            ...(p.dirty ? { prompt: p.text } : { video_prompt_id: p.id }),
            camera: s.camera.length > 0 ? s.camera : p.camera.slice(0, 3),
            aspect: s.aspect,
            duration: s.duration,
            resolution: s.resolution,
            prompt_optimizer: true,
            watermark: false,
          },
        ];
      });
      if (items.length === 0) return;
      update(goTo('videos'));
      setVideosBusy({ ...IDLE, running: true, startedAt: Date.now(), message: t('videoGeneration.progress.connecting') });
      try {
        const created: VideoView[] = [];
        for (let i = 0; i < items.length; i += 10) {
          created.push(...(await withRetry(() => createVideos(items.slice(i, i + 10)))));
        }
        update((x) => ({ ...x, videos: created }));
        void follow(created.map((v) => v.id));
      } catch (error) {
        setVideosBusy((s) => ({ ...s, running: false, error: messageOf(error, t('videoGeneration.errors.video')) }));
      }
    },
    // follow is declared below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, update],
  );

  const runVideoPrompts = useCallback(
    async (quick: boolean) => {
      const d = read();
      if (!d || d.selectedImageIds.length === 0) return;
      promptsAbort.current?.abort();
      const abort = new AbortController();
      promptsAbort.current = abort;
      const imageIds = [...d.selectedImageIds];
      update((x) => goTo('videoPrompts')({ ...x, mode: quick ? 'quick' : 'fine', videoPrompts: [], promptErrors: {}, selectedPromptIds: [] }));
      setPromptDrafts({});
      setPrompts({ ...IDLE, running: true, progress: 1, message: t('videoGeneration.progress.connecting'), startedAt: Date.now() });
      // Images still without prompts (or an error of their own).
      const missing = () => {
        const x = read();
        return imageIds.filter((id) => !x?.videoPrompts.some((p) => p.imageId === id) && !x?.promptErrors[id]);
      };
      let attempts = 0;
      let failed: string | null = null;
      // One attempt: after a cut, first the prompts the server saved with each image, then the stream
      // again for the images that still have none.
      const attempt = async () => {
        attempts += 1;
        if (attempts > 1) {
          for (const id of missing()) {
            const detail = await fetchImageDetail(id, abort.signal);
            if (detail.video_prompts && detail.video_prompts.length > 0) {
              const saved = promptsFromServer(detail.video_prompts);
              update((x) => ({ ...x, videoPrompts: [...x.videoPrompts.filter((p) => p.imageId !== id), ...saved] }));
            }
          }
        }
        const ids = missing();
        if (ids.length === 0) return;
        let complete = false;
        const outcome = await streamVideoPrompts(
          { imageIds: ids, language, fabricInfo: fabricInfo(d.form, presetLabel) },
          (e) => {
            if (e.type === 'prompt_streaming') {
              setPromptDrafts((all) => {
                const drafts = [...(all[e.image_id] ?? [])];
                drafts[e.index] = placeStreamed(drafts[e.index] ?? '', e.content, e.offset);
                return { ...all, [e.image_id]: drafts };
              });
            } else if (e.type === 'prompt_streaming_reset') {
              setPromptDrafts((all) => ({ ...all, [e.image_id]: [] }));
            } else if (e.type === 'prompts') {
              setPromptDrafts((all) => ({ ...all, [e.image_id]: [] }));
              update((x) => ({ ...x, videoPrompts: [...x.videoPrompts.filter((p) => p.imageId !== e.image_id), ...promptsFromServer(e.prompts)] }));
            } else if (e.type === 'image_error') {
              update((x) => ({ ...x, promptErrors: { ...x.promptErrors, [e.image_id]: e.message ?? t('videoGeneration.errors.videoPrompts') } }));
            } else if (e.type === 'progress') {
              setPrompts((s) => ({ ...s, progress: Math.max(s.progress, e.progress ?? 0), message: e.message ?? s.message }));
            } else if (e.type === 'complete') {
              complete = true;
            } else if (e.type === 'error') {
              failed = e.message ?? t('videoGeneration.errors.videoPrompts');
            }
          },
          abort.signal,
        );
        if (outcome === 'cancelled' || complete || failed) return;
        throw new ApiError('network', 0, t('errors.network'));
      };
      try {
        await withRetry(attempt, {
          signal: abort.signal,
          onRetry: (streak) =>
            setPrompts((s) => ({ ...s, retryInMs: Math.max(1000, streak.nextAttemptAt - Date.now()), message: t('videoGeneration.progress.reconnecting') })),
        });
      } catch (error) {
        if (abort.signal.aborted) return;
        setPrompts((s) => ({ ...s, running: false, error: messageOf(error, t('videoGeneration.errors.videoPrompts')) }));
        return;
      }
      if (abort.signal.aborted) return;
      if (failed) {
        const message: string = failed;
        setPrompts((s) => ({ ...s, running: false, error: message }));
        return;
      }
      setPrompts((s) => ({ ...s, running: false, progress: 100, message: t('videoGeneration.progress.completed') }));
      const now = read();
      if (!now) return;
      if (quick) {
        const ids = defaultPromptIds(now.videoPrompts, imageIds);
        update((x) => ({ ...x, selectedPromptIds: ids }));
        await createFromDraft({ ...now, selectedPromptIds: ids }, ids);
      } else {
        update((x) => goTo('selectPrompts')({ ...x, selectedPromptIds: defaultPromptIds(x.videoPrompts, imageIds) }));
      }
    },
    [createFromDraft, read, language, presetLabel, t, update],
  );

  // ---- videos --------------------------------------------------------------------------------

  const follow = useCallback(
    async (ids: number[]) => {
      followAbort.current?.abort();
      const abort = new AbortController();
      followAbort.current = abort;
      setVideosBusy((s) => ({ ...s, running: true, error: null, startedAt: s.startedAt ?? Date.now() }));
      const open = () => (read()?.videos ?? []).filter((v) => ids.includes(v.id) && !isFinished(v.status)).map((v) => v.id);
      const onVideo = (video: VideoView) => update((x) => ({ ...x, videos: mergeVideos(x.videos, [video]) }));
      try {
        await streamVideoProgress(
          ids,
          (e) => {
            if (e.type === 'video') onVideo(e.video);
            else if (e.type === 'progress') {
              update((x) => ({
                ...x,
                videos: x.videos.map((v) =>
                  v.id === e.id
                    ? {
                        ...v,
                        status: 'generating',
                        progress: Math.max(v.progress, e.progress ?? v.progress),
                        ...(e.message ? { progress_message: e.message } : {}),
                      }
                    : v,
                ),
              }));
            }
          },
          abort.signal,
        );
      } catch {
        // The stream broke: fall back to asking for each video below.
      }
      // Whatever the stream did not finish is asked for until it ends.
      while (!abort.signal.aborted && open().length > 0) {
        await new Promise((r) => window.setTimeout(r, 1500));
        for (const id of open()) {
          try {
            onVideo(await fetchVideo(id, abort.signal));
          } catch {
            // Offline for now: try again at the next round.
          }
        }
      }
      if (abort.signal.aborted) return;
      setVideosBusy((s) => ({ ...s, running: false }));
      update(goTo('complete'));
    },
    [read, update],
  );

  const generateVideos = useCallback(() => {
    const d = read();
    if (!d) return;
    void (async () => {
      // Edited prompts are saved with the image first (best effort; the text also goes along).
      for (const p of d.videoPrompts.filter((x) => x.dirty && d.selectedPromptIds.includes(x.id))) {
        try {
          await saveVideoPrompt(p.id, p.text);
        } catch {
          // The edited text is sent with the video anyway.
        }
      }
      await createFromDraft(d, d.selectedPromptIds);
    })();
  }, [createFromDraft, read]);

  const retry = useCallback(
    async (id: number) => {
      try {
        const video = await withRetry(() => retryVideo(id));
        update((x) => goTo('videos')({ ...x, videos: x.videos.map((v) => (v.id === id ? video : v)) }));
        const ids = (read()?.videos ?? []).map((v) => (v.id === id ? video.id : v.id));
        void follow(ids);
      } catch (error) {
        toast.error(messageOf(error, t('videoGeneration.errors.retry')));
      }
    },
    [follow, read, t, update],
  );

  const cancelOne = useCallback(
    async (id: number) => {
      try {
        const video = await cancelVideo(id);
        update((x) => ({ ...x, videos: mergeVideos(x.videos, [video]) }));
      } catch (error) {
        toast.error(messageOf(error, t('videoGeneration.errors.video')));
      }
    },
    [t, update],
  );

  // ---- picking work up again after a reload ---------------------------------------------------

  useEffect(() => {
    if (!draft || resumed.current) return;
    resumed.current = true;
    if (draft.step === 'images' && draft.analysisStarted && draft.requestId) {
      const requestId = draft.requestId;
      setAnalysis({ ...IDLE, running: true, progress: 1, message: t('videoGeneration.progress.connecting'), startedAt: Date.now() });
      const abort = new AbortController();
      analysisAbort.current = abort;
      void recoverAnalysis(requestId, abort.signal).catch(() => runAnalysis(requestId));
    } else if (draft.step === 'videoPrompts') {
      void runVideoPrompts(draft.mode === 'quick');
    } else if ((draft.step === 'videos' || draft.step === 'complete') && draft.videos.some((v) => !isFinished(v.status))) {
      void follow(draft.videos.map((v) => v.id));
    } else if (draft.step === 'videos' && draft.videos.length > 0) {
      update(goTo('complete'));
    }
  }, [draft, follow, recoverAnalysis, runAnalysis, runVideoPrompts, t, update]);

  useEffect(
    () => () => {
      analysisAbort.current?.abort();
      promptsAbort.current?.abort();
      followAbort.current?.abort();
      regenRun.current?.abort.abort();
    },
    [],
  );

  return {
    analysis,
    regen,
    prompts,
    promptDrafts,
    videosBusy,
    startAnalysis,
    retryAnalysis,
    cancelAnalysis: cancelAnalysisRun,
    regenerate,
    cancelRegen,
    runVideoPrompts,
    generateVideos,
    retry,
    cancelOne,
    follow,
  };
}
