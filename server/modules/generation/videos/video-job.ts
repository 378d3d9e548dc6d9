// One video generation: the provider's asynchronous task is started (its id saved at once, or
// before it is sent when the provider lets us name it), polled until it ends, and the video stored
// with a thumbnail from its first frame. After a restart a cloud task is polled again by its saved
// id; the built-in engine's task lived in the old process, so a local job starts over.
import sharp from 'sharp';
import { isDatabaseUnavailable } from '../../../db/database-unavailable.js';
import { abortableSleep } from '../../../jobs/abortable-sleep.js';
import type { JobHandler } from '../../../jobs/job-handler.js';
import { runOwner } from '../../../jobs/run-owner.js';
import {
  ProviderError,
  type Aspect,
  type CameraMove,
  type VideoKind,
  type VideoResolution,
  type VideoTaskState,
} from '../../../providers/capabilities.js';
import { makeThumbnail } from '../../../storage/thumbnails.js';
import { sniffVideoType } from '../../../storage/video-type.js';
import { failureColumns, NO_FAILURE } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { videoLaneOf } from '../engines/generation-providers.js';
import { generationDb, type VideoGenerationRow } from '../store/generation-tables.js';
import { createGenerationRepository } from '../store/generation-repository.js';
import { JOB_KINDS, topics, type GenerationEvent } from '../job-topics.js';
import { mustMove, RowMovedOn, stopsWhenRowMovesOn } from '../store/row-states.js';
import { inputImage } from '../store/stored-images.js';
import { parseCamera } from '../store/stored-json.js';
import { failureKind } from '../../../jobs/retryable-error.js';

/** Longest one run waits for a provider's task (spec §9 estimates 2-5 minutes). */
const VIDEO_TIMEOUT_MS = 30 * 60_000;
/** The middle of spec §9's estimate, for a progress figure while the provider says nothing. */
const EXPECTED_MS = 210_000;

type Finished = Extract<VideoTaskState, { state: 'succeeded' }>;

export function videoJob(ctx: GenerationContext): JobHandler {

  const download = async (video: Finished['video'], signal: AbortSignal): Promise<Buffer> => {
    if (video.data) return video.data;
    if (!video.url) throw new ProviderError('bad_response', 'the finished task has neither bytes nor a link');
    let response: Response;
    try {
      response = await fetch(video.url, { signal });
    } catch (error) {
      signal.throwIfAborted();
      throw new ProviderError('unavailable', 'the video could not be downloaded', { cause: error });
    }
    if (!response.ok) throw new ProviderError(response.status >= 500 ? 'unavailable' : 'bad_response', `video download answered ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  };

  const store = async (row: VideoGenerationRow, finished: Finished, signal: AbortSignal) => {
    const data = await download(finished.video, signal);
    if (data.length === 0) throw new ProviderError('bad_response', 'the video is empty');
    // Stored under the type its bytes say; what is not a video is not kept as one.
    const type = sniffVideoType(data);
    if (!type) throw new ProviderError('bad_response', `the provider's video is not an MP4, WebM or QuickTime file (declared ${finished.video.mimeType || 'nothing'})`);
    const file = await ctx.files.put(data, type, undefined);
    let thumbnailFileId: string | null = null;
    let frame = { width: 0, height: 0 };
    if (row.first_frame_file_id) {
      const firstFrame = await ctx.files.read(row.first_frame_file_id);
      if (firstFrame) {
        const thumb = await makeThumbnail(firstFrame);
        thumbnailFileId = (await ctx.files.put(thumb.data, thumb.mimeType, thumb)).id;
        const meta = await sharp(firstFrame).metadata();
        frame = { width: meta.width ?? 0, height: meta.height ?? 0 };
      }
    }
    return {
      file,
      thumbnailFileId,
      width: finished.video.width ?? (frame.width || null),
      height: finished.video.height ?? (frame.height || null),
    };
  };

  const cancelTask = async (id: number) => {
    const row = await ctx.repo.video(id);
    const slot = ctx.providers.videoGenerator;
    if (!row?.task_id || row.status === 'completed' || !slot?.impl.cancelVideo || row.provider !== slot.provider) return;
    try {
      await slot.impl.cancelVideo(row.task_id, AbortSignal.timeout(15_000));
    } catch (error) {
      ctx.log.warn({ err: error, videoId: id }, 'the provider could not be told to stop the video task');
    }
  };

  return {
    kind: JOB_KINDS.video,
    lane: () => videoLaneOf(ctx.providers.videoGenerator),
    // Minutes of work nobody watches live: an analysis someone watches goes first.
    jobClass: 'batch',
    timeoutMs: VIDEO_TIMEOUT_MS,
    // Every write is a guarded move: once a cancel or a finish moved the row on, the next write
    // does not apply and the run stops there.
    run: stopsWhenRowMovesOn(async ({ job, signal, publish }) => {
      // The row is this run's from here: a run that lost the job no longer writes it.
      const owner = runOwner(job);
      const repo = ctx.repo.ownedBy(owner);
      await repo.takeVideo(job.ref_id);
      let row = await repo.video(job.ref_id);
      if (!row || row.status === 'completed') return;
      const slot = ctx.providers.videoGenerator;
      if (!slot) throw new ProviderError('unavailable', 'no video generator is configured');
      const topic = topics.video(row.id);
      const send = (event: GenerationEvent) => publish(topic, event);
      const startedAt = row.started_at ?? repo.now();
      let taskId = row.task_id;
      const resumable = taskId !== null && row.provider === slot.provider && !slot.localPreview;
      if (!resumable) {
        if (!row.first_frame_file_id) throw new ProviderError('invalid_request', 'the first frame is missing');
        const firstFrame = await inputImage(ctx.files, row.first_frame_file_id, 'first-frame');
        const lastFrame =
          row.kind === 'first-last-frame' && row.last_frame_file_id
            ? await inputImage(ctx.files, row.last_frame_file_id, 'last-frame')
            : undefined;
        signal.throwIfAborted();
        // A task named before it is sent is the row's from now: a cancel stops it and the next
        // process follows it, even when the provider's answer to the start never comes.
        const planned = slot.impl.planTask?.(row.kind as VideoKind);
        const taskColumns = planned ? { task_id: planned.taskId, model: planned.model, provider: slot.provider } : { task_id: null };
        mustMove(await repo.moveVideo(row.id, 'generating', { progress: 1, started_at: startedAt, ...taskColumns, ...NO_FAILURE }), `video ${row.id}`);
        send({ type: 'started' });
        const task = await slot.impl.startVideo(
          {
            kind: row.kind as VideoKind,
            firstFrame,
            ...(lastFrame ? { lastFrame } : {}),
            prompt: row.video_prompt,
            camera: parseCamera(row.camera_json) as CameraMove[],
            aspect: row.aspect as Aspect,
            durationSeconds: Number(row.duration_seconds),
            resolution: row.resolution as VideoResolution,
            promptOptimizer: Number(row.prompt_optimizer) === 1,
            watermark: Number(row.watermark) === 1,
          },
          signal,
          planned?.taskId,
        );
        signal.throwIfAborted();
        taskId = task.taskId;
        mustMove(await repo.moveVideo(row.id, 'generating', { task_id: taskId, model: task.model, provider: slot.provider }), `video ${row.id}`);
      } else {
        mustMove(await repo.moveVideo(row.id, 'generating', NO_FAILURE), `video ${row.id}`);
        send({ type: 'started' });
      }
      row = (await repo.video(row.id))!;

      let lastProgress = Number(row.progress);
      let lastDetail = '';
      for (;;) {
        await abortableSleep(slot.impl.pollIntervalMs, signal);
        const state = await slot.impl.pollVideo(taskId!, signal);
        signal.throwIfAborted();
        if (state.state === 'failed') {
          // A task that failed is not polled again: a retry starts a new one.
          mustMove(await repo.moveVideo(row.id, 'generating', { task_id: null }), `video ${row.id}`);
          throw state.error;
        }
        if (state.state === 'succeeded') {
          const saved = await store(row, state, signal);
          signal.throwIfAborted();
          const completedAt = repo.now();
          const done = row;
          const moved = await ctx.baseDb.transaction().execute(async (trx) => {
            const inTrx = createGenerationRepository(generationDb(trx), ctx.now, owner);
            const applied = await inTrx.moveVideo(done.id, 'completed', {
              progress: 100,
              provider_file_id: state.fileId ?? null,
              result_file_id: saved.file.id,
              thumbnail_file_id: saved.thumbnailFileId,
              width: saved.width,
              height: saved.height,
              completed_at: completedAt,
              processing_ms: Date.parse(completedAt) - Date.parse(startedAt),
            });
            if (!applied) return null;
            return (await ctx.stageEnds?.videoDone(trx, done.id)) ?? (() => undefined);
          });
          if (!moved) throw new RowMovedOn(`video ${row.id}`);
          moved();
          send({ type: 'completed' });
          return;
        }
        // A provider that tells how far it is (ComfyUI's steps) is believed; the others get the estimate.
        const detail = state.progress;
        const elapsed = ctx.now().getTime() - Date.parse(startedAt);
        const progress =
          detail?.fraction !== undefined
            ? Math.min(95, Math.max(2, Math.round(5 + 90 * detail.fraction)))
            : Math.min(95, Math.max(2, Math.round(5 + (90 * elapsed) / EXPECTED_MS)));
        const told = detail ? JSON.stringify(detail) : '';
        if (progress !== lastProgress || told !== lastDetail) {
          lastDetail = told;
          try {
            if (progress !== lastProgress) mustMove(await repo.moveVideo(row.id, 'generating', { progress }), `video ${row.id}`);
            send({ type: 'progress', progress, ...(detail ? { detail } : {}) });
            ctx.stageEnds?.progress({ videoId: row.id }, progress);
          } catch (error) {
            // A progress figure that meets a database restart is skipped; the render goes on.
            if (!isDatabaseUnavailable(error)) throw error;
          }
          lastProgress = progress;
        }
      }
    }),
    async fail(job, error, reason, publish) {
      // A person cancelled it, or its run timed out: the provider's task stops using its machine
      // (ComfyUI: off the queue, or interrupted). Not on a shutdown, which never comes here.
      if (reason === 'cancelled' || (error instanceof ProviderError && error.kind === 'timeout')) await cancelTask(job.ref_id);
      // A finished video stays finished: a cancel that lands as it completes changes nothing.
      const failure = failureColumns(error, 'video_generation_failed');
      const moved = await ctx.baseDb.transaction().execute(async (trx) => {
        if (!(await createGenerationRepository(generationDb(trx), ctx.now).moveVideo(job.ref_id, 'failed', failure))) return null;
        return (await ctx.stageEnds?.videoFailed(trx, job.ref_id, failure)) ?? (() => undefined);
      });
      if (!moved) return;
      moved();
      publish(topics.video(job.ref_id), { type: 'failed', error_code: failure.error_code, error_key: failure.error_key } satisfies GenerationEvent);
    },
    async retrying(job, error, delayMs, publish) {
      const code = failureKind(error);
      publish(topics.video(job.ref_id), { type: 'retrying', delay_ms: delayMs, code } satisfies GenerationEvent);
    },
  };
}
