// The video prompts for the chosen images, written on a stream and shown as they are written. After
// a cut, the prompts the server already saved with each image are fetched, and the stream is opened
// again only for the images still without any. Quick mode then goes straight on to the videos.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api';
import { withRetry } from '../../../lib/retry/with-retry';
import { fetchImageDetail } from '../api/history-source';
import { streamVideoPrompts } from '../api/video-prompts-stream';
import { defaultPromptIds, placeStreamed, promptsFromServer, type VideoDraft } from '../model/draft';
import { fabricInfo } from '../model/fabric-form';
import { goToStep, withImagePrompts } from '../model/run-changes';
import { IDLE_RUN, failureMessage, openingRun, reconnectingRun, type StreamState } from '../model/run-state';
import type { WorkflowInputs } from './workflow-inputs';

/** Starts the videos of the chosen prompts (quick mode does it without asking). */
export type CreateVideos = (draft: VideoDraft, promptIds: number[]) => Promise<void>;

export function useVideoPromptsRun({ read, update, language, presetLabel }: WorkflowInputs, createFromDraft: CreateVideos) {
  const { t } = useTranslation();
  const [prompts, setPrompts] = useState<StreamState>(IDLE_RUN);
  /** Video prompts as they are written, by image, until the saved ones arrive (not kept in the draft). */
  const [promptDrafts, setPromptDrafts] = useState<Record<number, string[]>>({});
  const promptsAbort = useRef<AbortController | null>(null);

  const runVideoPrompts = useCallback(
    async (quick: boolean) => {
      const d = read();
      if (!d || d.selectedImageIds.length === 0) return;
      promptsAbort.current?.abort();
      const abort = new AbortController();
      promptsAbort.current = abort;
      const imageIds = [...d.selectedImageIds];
      update((x) => goToStep('videoPrompts')({ ...x, mode: quick ? 'quick' : 'fine', videoPrompts: [], promptErrors: {}, selectedPromptIds: [] }));
      setPromptDrafts({});
      setPrompts(openingRun(t('videoGeneration.progress.connecting'), Date.now()));
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
              update((x) => withImagePrompts(x, id, saved));
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
              update((x) => withImagePrompts(x, e.image_id, promptsFromServer(e.prompts)));
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
          onRetry: (streak) => setPrompts((s) => reconnectingRun(s, streak, t('videoGeneration.progress.reconnecting'), Date.now())),
        });
      } catch (error) {
        if (abort.signal.aborted) return;
        setPrompts((s) => ({ ...s, running: false, error: failureMessage(error, t('videoGeneration.errors.videoPrompts')) }));
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
        update((x) => goToStep('selectPrompts')({ ...x, selectedPromptIds: defaultPromptIds(x.videoPrompts, imageIds) }));
      }
    },
    [createFromDraft, read, language, presetLabel, t, update],
  );

  useEffect(() => () => promptsAbort.current?.abort(), []);

  return { prompts, promptDrafts, runVideoPrompts };
}
