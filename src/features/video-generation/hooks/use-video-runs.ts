// The videos of the last steps: created from the chosen prompts, then followed on the progress
// stream (and, where the stream stops short, by asking for each video) until each has ended;
// retry and cancel of one video. A reload follows running videos again by their ids.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { newIdempotencyKey } from '../../../lib/api/idempotency-key';
import { withRetry } from '../../../lib/retry/with-retry';
import { cancelVideo, createVideos, fetchVideo, retryVideo, streamVideoProgress } from '../api/video-generations';
import { saveVideoPrompt } from '../api/video-prompts-stream';
import { mergeVideos, type VideoDraft } from '../model/draft';
import { isFinished, type VideoView } from '../model/generation-types';
import { goToStep, withVideoProgress } from '../model/run-changes';
import { IDLE_RUN, failureMessage, type StreamState } from '../model/run-state';
import { specBatches, videoSpecs } from '../model/video-specs';
import type { WorkflowInputs } from './workflow-inputs';

/** How often a video the stream left unfinished is asked for. */
const POLL_MS = 1500;

export function useVideoRuns({ read, update }: Pick<WorkflowInputs, 'read' | 'update'>) {
  const { t } = useTranslation();
  const [videosBusy, setVideosBusy] = useState<StreamState>(IDLE_RUN);
  const followAbort = useRef<AbortController | null>(null);

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
            else if (e.type === 'progress') update((x) => withVideoProgress(x, e));
          },
          abort.signal,
        );
      } catch {
        // The stream broke: fall back to asking for each video below.
      }
      // Whatever the stream did not finish is asked for until it ends.
      while (!abort.signal.aborted && open().length > 0) {
        await new Promise((r) => window.setTimeout(r, POLL_MS));
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
      update(goToStep('complete'));
    },
    [read, update],
  );

  const createFromDraft = useCallback(
    async (d: VideoDraft, promptIds: number[]) => {
      const specs = videoSpecs(d, promptIds);
      if (specs.length === 0) return;
      update(goToStep('videos'));
      setVideosBusy({ ...IDLE_RUN, running: true, startedAt: Date.now(), message: t('videoGeneration.progress.connecting') });
      try {
        const created: VideoView[] = [];
        for (const batch of specBatches(specs)) {
          const key = newIdempotencyKey();
          created.push(...(await withRetry(() => createVideos(batch, key))));
        }
        update((x) => ({ ...x, videos: created }));
        void follow(created.map((v) => v.id));
      } catch (error) {
        setVideosBusy((s) => ({ ...s, running: false, error: failureMessage(error, t('videoGeneration.errors.video')) }));
      }
    },
    [follow, t, update],
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
        const key = newIdempotencyKey();
        const video = await withRetry(() => retryVideo(id, key));
        update((x) => goToStep('videos')({ ...x, videos: x.videos.map((v) => (v.id === id ? video : v)) }));
        const ids = (read()?.videos ?? []).map((v) => (v.id === id ? video.id : v.id));
        void follow(ids);
      } catch (error) {
        toast.error(failureMessage(error, t('videoGeneration.errors.retry')));
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
        toast.error(failureMessage(error, t('videoGeneration.errors.video')));
      }
    },
    [t, update],
  );

  useEffect(() => () => followAbort.current?.abort(), []);

  return { videosBusy, follow, createFromDraft, generateVideos, retry, cancelOne };
}
