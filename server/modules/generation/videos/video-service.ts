// Creating video generations from generated images, and retrying one from its original
// parameters. What the call asked for is kept with the row (params_json) so a retry asks again.
// A call with several videos is all or nothing: every item is checked before any row is made,
// and the rows and their jobs are written in one transaction (replayed by Idempotency-Key).
import type { Insertable, Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../http/app-error.js';
import type { IdempotentResult } from '../../../http/idempotency-store.js';
import type { Locale } from '../../../http/messages.js';
import { idField, integerField } from '../../../http/strict-numbers.js';
import { CAMERA_MOVES } from '../../../providers/capabilities.js';
import { ASPECTS, MAX_PROMPT_LENGTH } from '../form-fields.js';
import type { GenerationContext } from '../generation-context.js';
import { createGenerationRepository, type GenerationRepository } from '../store/generation-repository.js';
import { generationDb, type VideoGenerationRow, type VideoGenerationsTable } from '../store/generation-tables.js';
import { MAX_VIDEO_PROMPT_LENGTH } from '../history/history-routes.js';
import { JOB_KINDS } from '../job-topics.js';
import { requireSlot } from '../engines/generation-providers.js';
import { parseObject } from '../store/stored-json.js';

export const MAX_VIDEOS_PER_CALL = 10;
export const VIDEO_DURATIONS = [6, 10] as const;
export const VIDEO_RESOLUTIONS = ['512P', '768P', '1080P'] as const;

export const videoSpecSchema = z
  .object({
    image_id: idField(),
    kind: z.enum(['standard', 'first-last-frame']).default('standard'),
    last_image_id: idField().optional(),
    video_prompt_id: idField().optional(),
    prompt: z.string().trim().max(MAX_VIDEO_PROMPT_LENGTH, `prompt must be at most ${MAX_VIDEO_PROMPT_LENGTH} characters`).optional(),
    user_prompt: z.string().trim().max(MAX_PROMPT_LENGTH, `user_prompt must be at most ${MAX_PROMPT_LENGTH} characters`).optional(),
    camera: z.array(z.enum(CAMERA_MOVES)).max(3, 'at most 3 camera moves').default([]),
    aspect: z.enum(ASPECTS as ['square', 'vertical', 'horizontal', 'auto']).default('auto'),
    duration: integerField(1, 60)
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
  })
  .meta({ id: 'VideoSpec' });

export type VideoSpec = z.infer<typeof videoSpecSchema>;

/** One spec, or `items` holding several (one video each). */
export const createVideosSchema = z.union([
  z.object({ items: z.array(videoSpecSchema).min(1).max(MAX_VIDEOS_PER_CALL) }),
  videoSpecSchema.transform((spec) => ({ items: [spec] })),
]);

type NewVideo = Omit<Insertable<VideoGenerationsTable>, 'created_at' | 'updated_at'>;

/** What a create call stores for a replay: the ids it made (a replay shows those rows as they are now). */
export interface CreatedVideos {
  ids: number[];
}

export function createVideoService(ctx: GenerationContext) {
  const { repo } = ctx;

  /** Checks a spec against the user's rows (read through `reader`) and answers the row to insert; makes nothing. */
  const prepare = async (reader: GenerationRepository, userId: number, spec: VideoSpec, language: Locale, retryOf?: number): Promise<NewVideo> => {
    const ids = [spec.image_id, ...(spec.kind === 'first-last-frame' && spec.last_image_id ? [spec.last_image_id] : [])];
    const images = await reader.imagesOfUser(userId, ids);
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
      const chosen = await reader.videoPrompt(spec.video_prompt_id);
      if (!chosen || chosen.user_id !== userId) throw new AppError(404, 'not_found');
      promptText ||= chosen.prompt;
      if (camera.length === 0) camera = JSON.parse(chosen.camera_json) as typeof camera;
    }
    const now = reader.now();
    return {
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
    };
  };

  /** Checks every spec, then makes every row and its job in the transaction; the first refusal makes nothing. */
  const createAll = async (
    trx: Transaction<Database>,
    userId: number,
    specs: VideoSpec[],
    language: Locale,
    retryOf?: number,
  ): Promise<VideoGenerationRow[]> => {
    const inTrx = createGenerationRepository(generationDb(trx), ctx.now);
    const prepared: NewVideo[] = [];
    for (const spec of specs) prepared.push(await prepare(inTrx, userId, spec, language, retryOf));
    const rows: VideoGenerationRow[] = [];
    for (const values of prepared) {
      const row = await inTrx.insertVideo(values);
      await ctx.jobs.enqueue({ kind: JOB_KINDS.video, refId: row.id, userId }, { trx });
      rows.push(row);
    }
    return rows;
  };

  return {
    /** Makes the videos (all or none); with an Idempotency-Key a resend answers the first call's ids. */
    async create(
      userId: number,
      specs: VideoSpec[],
      language: Locale,
      idempotency: { key: string | undefined; fingerprint: string },
    ): Promise<IdempotentResult & { data: CreatedVideos }> {
      requireSlot(ctx.providers, 'videoGenerator');
      const admit = () => ctx.jobs.admit(userId, JOB_KINDS.video, specs.length);
      const result = await ctx.idempotency.run(userId, idempotency.key, idempotency.fingerprint, async (trx) => {
        const rows = await createAll(trx, userId, specs, language);
        return { status: 201, messageKey: 'generation_started', data: { ids: rows.map((r) => r.id) } satisfies CreatedVideos };
      }, admit);
      return { ...result, data: result.data as CreatedVideos };
    },

    /**
     * A new generation from a finished one's original parameters; with an Idempotency-Key a resend
     * answers the row the first call made instead of making another.
     */
    async retry(
      userId: number,
      id: number,
      language: Locale,
      idempotency: { key: string | undefined; fingerprint: string },
    ): Promise<IdempotentResult & { row: VideoGenerationRow }> {
      requireSlot(ctx.providers, 'videoGenerator');
      const [row] = await repo.videosOfUser(userId, [id]);
      if (!row) throw new AppError(404, 'not_found');
      if (row.status === 'pending' || row.status === 'generating') throw new AppError(409, 'still_running');
      const original = parseObject(row.params_json);
      const params = original ? videoSpecSchema.safeParse(original) : undefined;
      if (!params?.success) throw new AppError(400, 'cannot_retry_without_parameters');
      const admit = () => ctx.jobs.admit(userId, JOB_KINDS.video);
      const result = await ctx.idempotency.run(userId, idempotency.key, idempotency.fingerprint, async (trx) => {
        const [created] = await createAll(trx, userId, [params.data], language, row.id);
        return { status: 201, messageKey: 'generation_started', data: { id: created!.id } };
      }, admit);
      const [made] = await repo.videosOfUser(userId, [(result.data as { id: number }).id]);
      if (!made) throw new AppError(404, 'not_found');
      return { ...result, row: made };
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
