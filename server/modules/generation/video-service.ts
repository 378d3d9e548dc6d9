// Creating video generations from generated images, and retrying one from its original
// parameters. What the call asked for is kept with the row (params_json) so a retry asks again.
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { Locale } from '../../http/messages.js';
import { CAMERA_MOVES } from '../../providers/capabilities.js';
import { ASPECTS, MAX_PROMPT_LENGTH } from './analyze-form.js';
import type { GenerationContext } from './generation-context.js';
import type { VideoGenerationRow } from './generation-tables.js';
import { MAX_VIDEO_PROMPT_LENGTH } from './history-routes.js';
import { JOB_KINDS } from './job-topics.js';
import { requireSlot } from './generation-providers.js';
import { parseObject } from './stored-json.js';

export const MAX_VIDEOS_PER_CALL = 10;
export const VIDEO_DURATIONS = [6, 10] as const;
export const VIDEO_RESOLUTIONS = ['512P', '768P', '1080P'] as const;

export const videoSpecSchema = z
  .object({
    image_id: z.coerce.number().int().positive(),
    kind: z.enum(['standard', 'first-last-frame']).default('standard'),
    last_image_id: z.coerce.number().int().positive().optional(),
    video_prompt_id: z.coerce.number().int().positive().optional(),
    prompt: z.string().trim().max(MAX_VIDEO_PROMPT_LENGTH, `prompt must be at most ${MAX_VIDEO_PROMPT_LENGTH} characters`).optional(),
    user_prompt: z.string().trim().max(MAX_PROMPT_LENGTH, `user_prompt must be at most ${MAX_PROMPT_LENGTH} characters`).optional(),
    camera: z.array(z.enum(CAMERA_MOVES)).max(3, 'at most 3 camera moves').default([]),
    aspect: z.enum(ASPECTS as ['square', 'vertical', 'horizontal', 'auto']).default('auto'),
    duration: z.coerce
      .number()
      .int()
      .refine((d) => (VIDEO_DURATIONS as readonly number[]).includes(d), `duration must be one of ${VIDEO_DURATIONS.join(', ')}`)
      .default(6),
    resolution: z.enum(VIDEO_RESOLUTIONS).default('768P'),
    prompt_optimizer: z.boolean().default(true),
    watermark: z.boolean().default(false),
    style: z.string().trim().max(200).optional(),
  })
  .refine((s) => s.kind === 'standard' || s.last_image_id !== undefined, {
    message: 'last_image_id is required for a first-last-frame video',
    path: ['last_image_id'],
  })
  .refine((s) => !!s.prompt || s.video_prompt_id !== undefined, {
    message: 'prompt or video_prompt_id is required',
    path: ['prompt'],
  });

export type VideoSpec = z.infer<typeof videoSpecSchema>;

/** One spec, or `items` holding several (one video each). */
export const createVideosSchema = z.union([
  z.object({ items: z.array(videoSpecSchema).min(1).max(MAX_VIDEOS_PER_CALL) }),
  videoSpecSchema.transform((spec) => ({ items: [spec] })),
]);

export function createVideoService(ctx: GenerationContext) {
  const { repo } = ctx;

  /** Checks a spec against the user's rows and makes its row and job. */
  const createOne = async (userId: number, spec: VideoSpec, language: Locale, retryOf?: number): Promise<VideoGenerationRow> => {
    const ids = [spec.image_id, ...(spec.kind === 'first-last-frame' && spec.last_image_id ? [spec.last_image_id] : [])];
    const images = await repo.imagesOfUser(userId, ids);
    const source = images.find((i) => i.id === spec.image_id);
    const last = spec.kind === 'first-last-frame' ? images.find((i) => i.id === spec.last_image_id) : undefined;
    if (!source || (spec.kind === 'first-last-frame' && !last)) throw new AppError(404, 'not_found');
    for (const image of [source, last]) {
      if (image && (image.status !== 'completed' || !image.file_id)) {
        throw new AppError(409, 'image_not_ready', { vars: { id: image.id } });
      }
    }
    let promptText = spec.prompt;
    let camera = spec.camera;
    if (spec.video_prompt_id !== undefined) {
      const chosen = await repo.videoPrompt(spec.video_prompt_id);
      if (!chosen || chosen.user_id !== userId) throw new AppError(404, 'not_found');
      promptText ||= chosen.prompt;
      if (camera.length === 0) camera = JSON.parse(chosen.camera_json) as typeof camera;
    }
    const now = repo.now();
    const row = await repo.insertVideo({
      user_id: userId,
      source_image_id: source.id,
      last_image_id: last?.id ?? null,
      video_prompt_id: spec.video_prompt_id ?? null,
      retry_of_id: retryOf ?? null,
      kind: spec.kind,
      status: 'pending',
      user_prompt: spec.user_prompt ?? null,
      video_prompt: promptText!,
      style: spec.style ?? source.style,
      camera_json: JSON.stringify(camera),
      aspect: spec.aspect,
      duration_seconds: spec.duration,
      resolution: spec.resolution,
      prompt_optimizer: spec.prompt_optimizer ? 1 : 0,
      watermark: spec.watermark ? 1 : 0,
      language,
      first_frame_file_id: source.file_id,
      last_frame_file_id: last?.file_id ?? null,
      provider: ctx.providers.videoGenerator?.provider ?? null,
      model: null,
      task_id: null,
      provider_file_id: null,
      result_file_id: null,
      thumbnail_file_id: null,
      width: null,
      height: null,
      params_json: JSON.stringify(spec),
      progress: 0,
      requested_at: now,
      started_at: null,
      completed_at: null,
      processing_ms: null,
      error_code: null,
      error_key: null,
      error_detail: null,
    });
    await ctx.jobs.enqueue({ kind: JOB_KINDS.video, refId: row.id, userId });
    return row;
  };

  return {
    async create(userId: number, specs: VideoSpec[], language: Locale): Promise<VideoGenerationRow[]> {
      requireSlot(ctx.providers, 'videoGenerator');
      await ctx.jobs.admit(userId, JOB_KINDS.video, specs.length);
      const rows: VideoGenerationRow[] = [];
      for (const spec of specs) rows.push(await createOne(userId, spec, language));
      return rows;
    },

    /** A new generation from a finished one's original parameters. */
    async retry(userId: number, id: number, language: Locale): Promise<VideoGenerationRow> {
      requireSlot(ctx.providers, 'videoGenerator');
      const [row] = await repo.videosOfUser(userId, [id]);
      if (!row) throw new AppError(404, 'not_found');
      if (row.status === 'pending' || row.status === 'generating') throw new AppError(409, 'still_running');
      const original = parseObject(row.params_json);
      const params = original ? videoSpecSchema.safeParse(original) : undefined;
      if (!params?.success) throw new AppError(400, 'cannot_retry_without_parameters');
      await ctx.jobs.admit(userId, JOB_KINDS.video);
      return createOne(userId, params.data, language, row.id);
    },

    async cancel(userId: number, id: number): Promise<VideoGenerationRow> {
      const [row] = await repo.videosOfUser(userId, [id]);
      if (!row) throw new AppError(404, 'not_found');
      const outcome = await ctx.jobs.cancel(JOB_KINDS.video, row.id);
      if (outcome === 'not_running') throw new AppError(409, 'already_finished');
      return (await repo.video(row.id))!;
    },
  };
}

export type VideoService = ReturnType<typeof createVideoService>;
