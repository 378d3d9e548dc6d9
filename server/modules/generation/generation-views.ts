// Rows → what the API answers: snake_case fields as the rest of the main API, signed links for
// every file (only ever built from rows already checked to be the reader's), failures in the
// reader's language. Spec §3's image and video detail fields are all here. Each view is a zod
// schema with an id: the OpenAPI document names it, the PWA's types are generated from it, and
// the builders below are typed by it, so a field renamed here fails to compile on both sides.
//
// Request ids: on the wire `request_id` is the client's own id for an analyse request, the name
// spec §3/§7 give the analyse form's field (so also ImageRequest.request_id, the cancel path and
// the recovery call's request_ids). GeneratedImage.request_id is a field the spec does not name:
// the row id of the image request the image came from (ImageRequest.id). It keeps its wire name
// for the clients that read it and is described as such in the OpenAPI document; ImageDetail
// carries the client's id beside it as client_request_id.
// Inside the server the same split holds: `client_request_id` / `clientRequestId` is the client's
// id, the `request_id` columns and `requestId` parameters of the repository are row ids.
import { z } from 'zod';
import { CAMERA_MOVES } from '../../../shared/generation/camera-moves.js';
import type { Locale } from '../../http/messages.js';
import { analysisDataSchema, fabricInfoSchema, type VideoKind } from '../../providers/capabilities.js';
import type { SignedLinks } from '../../storage/signed-links.js';
import { candidateSummary, candidateSummarySchema, failureView, itemErrorSchema } from './failure.js';
import { collectionLinkSchema, collectionLinksOfImages, collectionLinksOfRequests, type CollectionLink } from './history/collection-links.js';
import { pageSchema } from './history/page-query.js';
import type { GenerationRepository } from './store/generation-repository.js';
import { GENERATION_STATUSES } from './store/generation-tables.js';
import type {
  GenerationDb,
  GeneratedImageRow,
  GenerationRequestRow,
  VideoGenerationRow,
  VideoPromptRow,
} from './store/generation-tables.js';
import { parseAnalysis, parseCamera, parseFabric, parseObject } from './store/stored-json.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
};

const rowId = () => z.number().int();
const status = z.enum(GENERATION_STATUSES);
const cameraMoves = z.array(z.enum(CAMERA_MOVES));

export const uploadedImageSchema = z
  .object({ file_id: z.string(), role: z.enum(['model', 'pattern']), position: z.number().int(), url: z.string() })
  .meta({ id: 'UploadedImage' });
export type UploadView = z.output<typeof uploadedImageSchema>;

/** A request's model and pattern uploads. */
export const uploadedImagesSchema = z
  .object({ model: z.array(uploadedImageSchema), pattern: z.array(uploadedImageSchema) })
  .meta({ id: 'UploadedImages' });

export const frameRefSchema = z.object({ file_id: z.string(), url: z.string().nullable() }).meta({ id: 'FrameRef' });

export const videoPromptSchema = z
  .object({
    id: rowId(),
    image_id: rowId(),
    position: z.number().int(),
    prompt: z.string(),
    camera: cameraMoves,
    scene: z.string().nullable(),
    mood: z.string().nullable(),
    model: z.string().nullable(),
    edited: z.boolean(),
    updated_at: z.string(),
  })
  .meta({ id: 'VideoPrompt' });
export type VideoPromptView = z.output<typeof videoPromptSchema>;

/** One generated image: an original candidate, or one made by regenerating another. */
export const generatedImageSchema = z
  .object({
    id: rowId(),
    request_id: rowId()
      .nullable()
      .meta({ description: "The row id of the image request this image came from (ImageRequest.id), not the client's request_id; null for none." }),
    generation_id: z.string(),
    parent_image_id: rowId().nullable(),
    source: z.enum(['original', 'regenerated']),
    position: z.number().int(),
    status,
    prompt: z.string(),
    label: z.string().nullable(),
    aspect: z.string(),
    style: z.string().nullable(),
    model: z.string().nullable(),
    provider: z.string().nullable(),
    moments_text: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    error: itemErrorSchema.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    completed_at: z.string().nullable(),
    collection: collectionLinkSchema,
  })
  .meta({ id: 'GeneratedImage' });
export type GeneratedImageView = z.output<typeof generatedImageSchema>;

/** Spec §3 image detail: user prompt, uploads, moments text, video prompts, times, size, style, model. */
export const imageDetailSchema = generatedImageSchema
  .extend({
    user_prompt: z.string(),
    description: z.string().nullable(),
    client_request_id: z.string().nullable().meta({ description: "The client's request_id of the image request this image came from." }),
    fabric: fabricInfoSchema,
    analysis: analysisDataSchema.nullable(),
    uploaded_images: uploadedImagesSchema,
    video_prompts: z.array(videoPromptSchema),
    size: z.object({ width: z.number().int().nullable(), height: z.number().int().nullable(), mime_type: z.string().nullable() }),
  })
  .meta({ id: 'ImageDetail' });
export type ImageDetailView = z.output<typeof imageDetailSchema>;

/** An analyse request with its uploads, analysis and candidates, for a client recovering after a cut stream. */
export const imageRequestSchema = z
  .object({
    id: rowId(),
    request_id: z.string().meta({ description: "The client's request id." }),
    status,
    prompt: z.string(),
    description: z.string().nullable(),
    fabric: fabricInfoSchema,
    language: z.string(),
    aspect: z.string(),
    analysis_text: z.string().nullable(),
    analysis: analysisDataSchema.nullable(),
    model: z.string().nullable(),
    provider: z.string().nullable(),
    error: itemErrorSchema.nullable(),
    uploaded_images: uploadedImagesSchema,
    images: z.array(generatedImageSchema),
    candidates: candidateSummarySchema,
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    collection: collectionLinkSchema,
  })
  .meta({ id: 'ImageRequest' });
export type ImageRequestView = z.output<typeof imageRequestSchema>;

export const videoGenerationSchema = z
  .object({
    id: rowId(),
    kind: z.enum(['standard', 'first-last-frame']),
    status,
    progress: z.number().meta({ description: '0..100' }),
    source_image_id: rowId().nullable(),
    user_prompt: z.string().nullable(),
    video_prompt: z.string(),
    aspect: z.string(),
    duration: z.number().meta({ description: 'seconds' }),
    resolution: z.string(),
    model: z.string().nullable(),
    provider: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    error: itemErrorSchema.nullable(),
    requested_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    processing_ms: z.number().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    collection: collectionLinkSchema,
  })
  .meta({ id: 'VideoGeneration' });
export type VideoGenerationView = z.output<typeof videoGenerationSchema>;

/** Spec §3 video detail: every field, with the source image's uploads and moments text. */
export const videoDetailSchema = videoGenerationSchema
  .extend({
    style: z.string().nullable(),
    camera: cameraMoves,
    first_frame: frameRefSchema.nullable(),
    last_frame: frameRefSchema.nullable(),
    uploaded_images: uploadedImagesSchema,
    moments_text: z.string().nullable(),
    image_prompt: z.string().nullable(),
    generated_by: z.object({ provider: z.string().nullable(), model: z.string().nullable() }),
    task_id: z.string().nullable(),
    file_id: z.string().nullable().meta({ description: "The provider's file id." }),
    result_file_id: z.string().nullable(),
    prompt_optimizer: z.boolean(),
    watermark: z.boolean(),
    can_retry: z.boolean(),
    retry_of_id: rowId().nullable(),
    video_prompt_id: rowId().nullable(),
    last_image_id: rowId().nullable(),
  })
  .meta({ id: 'VideoDetail' });
export type VideoDetailView = z.output<typeof videoDetailSchema>;

export const generatedImagePageSchema = pageSchema(generatedImageSchema, 'GeneratedImagePage');
export const videoGenerationPageSchema = pageSchema(videoGenerationSchema, 'VideoGenerationPage');

/** A candidate's label in the reader's language when the provider worded it in several, else as stored. */
export function wordedLabel(r: Pick<GeneratedImageRow, 'label' | 'labels_json'>, locale: Locale): string | null {
  const labels = parseObject(r.labels_json);
  const worded = labels?.[locale];
  return typeof worded === 'string' && worded ? worded : r.label;
}

/**
 * `db` reads which collection a row was made for (history/collection-links.ts): the repository's
 * queries stay the generation tables' own.
 */
export function createViewBuilder(repo: GenerationRepository, links: SignedLinks, now: () => Date, db: GenerationDb) {
  /** A signed link for a file, named `<stem>.<ext>` by its type. */
  const linker = async (ids: (string | null)[]) => {
    const mimes = await repo.fileMimeTypes(ids);
    return (id: string | null, stem: string): string | null => {
      if (!id) return null;
      const ext = EXTENSIONS[mimes.get(id) ?? ''] ?? 'bin';
      return links.sign(id, `${stem}.${ext}`, now().getTime());
    };
  };

  const imageFileIds = (rows: GeneratedImageRow[]) => rows.flatMap((r) => [r.file_id, r.thumbnail_file_id]);

  const imageView = (
    r: GeneratedImageRow,
    link: (id: string | null, stem: string) => string | null,
    locale: Locale,
    collections: Map<number, CollectionLink>,
  ): GeneratedImageView => ({
    id: r.id,
    request_id: r.request_id,
    generation_id: r.generation_id,
    parent_image_id: r.parent_image_id,
    source: r.parent_image_id === null ? ('original' as const) : ('regenerated' as const),
    position: r.position,
    status: r.status,
    prompt: r.prompt,
    label: wordedLabel(r, locale),
    aspect: r.aspect,
    style: r.style,
    model: r.model,
    provider: r.provider,
    moments_text: r.moments_text,
    width: r.width,
    height: r.height,
    url: link(r.file_id, `image-${r.id}`),
    thumbnail_url: link(r.thumbnail_file_id, `image-${r.id}-thumb`),
    error: failureView(r, locale),
    created_at: r.created_at,
    updated_at: r.updated_at,
    completed_at: r.completed_at,
    collection: r.request_id === null ? null : (collections.get(r.request_id) ?? null),
  });

  const promptView = (p: VideoPromptRow): VideoPromptView => ({
    id: p.id,
    image_id: p.image_id,
    position: p.position,
    prompt: p.prompt,
    camera: parseCamera(p.camera_json),
    scene: p.scene,
    mood: p.mood,
    model: p.model,
    edited: Number(p.edited) === 1,
    updated_at: p.updated_at,
  });

  /** The model and pattern uploads of requests, by request id. */
  const uploadsOf = async (requestIds: number[]) => {
    const rows = await repo.uploads(requestIds);
    const link = await linker(rows.map((u) => u.file_id));
    const byRequest = new Map<number, UploadView[]>();
    for (const u of rows) {
      const list = byRequest.get(u.request_id) ?? [];
      list.push({ file_id: u.file_id, role: u.role, position: u.position, url: link(u.file_id, `${u.role}-${u.position + 1}`)! });
      byRequest.set(u.request_id, list);
    }
    return byRequest;
  };

  const split = (uploads: UploadView[] | undefined) => ({
    model: (uploads ?? []).filter((u) => u.role === 'model'),
    pattern: (uploads ?? []).filter((u) => u.role === 'pattern'),
  });

  return {
    async images(rows: GeneratedImageRow[], locale: Locale): Promise<GeneratedImageView[]> {
      const [link, collections] = await Promise.all([
        linker(imageFileIds(rows)),
        collectionLinksOfRequests(db, rows.map((r) => r.request_id)),
      ]);
      return rows.map((r) => imageView(r, link, locale, collections));
    },

    /** Spec §3 image detail: user prompt, uploads, moments text, video prompts, times, size, style, model. */
    async imageDetail(r: GeneratedImageRow, locale: Locale): Promise<ImageDetailView> {
      const request = r.request_id !== null ? await repo.request(r.request_id) : undefined;
      const [link, uploads, prompts, info, collections] = await Promise.all([
        linker(imageFileIds([r])),
        uploadsOf(request ? [request.id] : []),
        repo.videoPrompts([r.id]),
        repo.fileMimeTypes([r.file_id]),
        collectionLinksOfRequests(db, [r.request_id]),
      ]);
      const analysis = request ? parseAnalysis(request.analysis_json) : undefined;
      return {
        ...imageView(r, link, locale, collections),
        user_prompt: request?.prompt ?? r.prompt,
        description: request?.description ?? null,
        client_request_id: request?.client_request_id ?? null,
        fabric: request ? parseFabric(request.fabric_json) : {},
        analysis: analysis ?? null,
        uploaded_images: split(request ? uploads.get(request.id) : undefined),
        video_prompts: prompts.map(promptView),
        size: { width: r.width, height: r.height, mime_type: r.file_id ? (info.get(r.file_id) ?? null) : null },
      };
    },

    /** Requests with their uploads and their six candidates, for a client recovering after a cut stream. */
    async requests(rows: GenerationRequestRow[], locale: Locale): Promise<ImageRequestView[]> {
      const ids = rows.map((r) => r.id);
      const [uploads, images, collections] = await Promise.all([
        uploadsOf(ids),
        repo.imagesOfRequests(ids),
        collectionLinksOfRequests(db, ids),
      ]);
      const imageViews = await this.images(images, locale);
      return rows.map((r) => ({
        id: r.id,
        request_id: r.client_request_id,
        status: r.status,
        prompt: r.prompt,
        description: r.description,
        fabric: parseFabric(r.fabric_json),
        language: r.language,
        aspect: r.aspect,
        analysis_text: r.analysis_text,
        analysis: parseAnalysis(r.analysis_json) ?? null,
        model: r.model,
        provider: r.provider,
        error: failureView(r, locale),
        uploaded_images: split(uploads.get(r.id)),
        images: imageViews.filter((i) => i.request_id === r.id),
        // Made and refused while running too; the message says why some are missing.
        candidates: candidateSummary(
          images.filter((i) => i.request_id === r.id),
          locale,
        ),
        created_at: r.created_at,
        started_at: r.started_at,
        completed_at: r.completed_at,
        collection: collections.get(r.id) ?? null,
      }));
    },

    videoPrompt: promptView,

    async videos(rows: VideoGenerationRow[], locale: Locale): Promise<VideoGenerationView[]> {
      const [link, collections] = await Promise.all([
        linker(rows.flatMap((r) => [r.result_file_id, r.thumbnail_file_id])),
        collectionLinksOfImages(db, rows.map((r) => r.source_image_id)),
      ]);
      return rows.map((r) => videoView(r, link, locale, collections));
    },

    /** Spec §3 video detail: every field, with the source image's uploads and moments text. */
    async videoDetail(r: VideoGenerationRow, locale: Locale): Promise<VideoDetailView> {
      const source = r.source_image_id !== null ? await repo.image(r.source_image_id) : undefined;
      const request = source?.request_id ? await repo.request(source.request_id) : undefined;
      const [link, uploads, collections] = await Promise.all([
        linker([r.result_file_id, r.thumbnail_file_id, r.first_frame_file_id, r.last_frame_file_id]),
        uploadsOf(request ? [request.id] : []),
        collectionLinksOfImages(db, [r.source_image_id]),
      ]);
      const base = videoView(r, link, locale, collections);
      return {
        ...base,
        style: r.style,
        camera: parseCamera(r.camera_json),
        first_frame: r.first_frame_file_id ? { file_id: r.first_frame_file_id, url: link(r.first_frame_file_id, `video-${r.id}-first-frame`) } : null,
        last_frame: r.last_frame_file_id ? { file_id: r.last_frame_file_id, url: link(r.last_frame_file_id, `video-${r.id}-last-frame`) } : null,
        uploaded_images: split(request ? uploads.get(request.id) : undefined),
        moments_text: source?.moments_text ?? null,
        image_prompt: source?.prompt ?? null,
        generated_by: { provider: r.provider, model: r.model },
        task_id: r.task_id,
        file_id: r.provider_file_id,
        result_file_id: r.result_file_id,
        prompt_optimizer: Number(r.prompt_optimizer) === 1,
        watermark: Number(r.watermark) === 1,
        can_retry: r.params_json !== null,
        retry_of_id: r.retry_of_id,
        video_prompt_id: r.video_prompt_id,
        last_image_id: r.last_image_id,
      };
    },
  };

  function videoView(
    r: VideoGenerationRow,
    link: (id: string | null, stem: string) => string | null,
    locale: Locale,
    collections: Map<number, CollectionLink>,
  ): VideoGenerationView {
    return {
      id: r.id,
      // Only the video service writes the column, from a kind its schema checked.
      kind: r.kind as VideoKind,
      status: r.status,
      progress: r.status === 'completed' ? 100 : Number(r.progress),
      source_image_id: r.source_image_id,
      user_prompt: r.user_prompt,
      video_prompt: r.video_prompt,
      aspect: r.aspect,
      duration: Number(r.duration_seconds),
      resolution: r.resolution,
      model: r.model,
      provider: r.provider,
      width: r.width,
      height: r.height,
      url: link(r.result_file_id, `video-${r.id}`),
      thumbnail_url: link(r.thumbnail_file_id, `video-${r.id}-thumb`),
      error: failureView(r, locale),
      requested_at: r.requested_at,
      started_at: r.started_at,
      completed_at: r.completed_at,
      processing_ms: r.processing_ms === null ? null : Number(r.processing_ms),
      created_at: r.created_at,
      updated_at: r.updated_at,
      collection: r.source_image_id === null ? null : (collections.get(r.source_image_id) ?? null),
    };
  }
}

export type ViewBuilder = ReturnType<typeof createViewBuilder>;
