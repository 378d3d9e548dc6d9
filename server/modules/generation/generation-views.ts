// Rows → what the API answers: snake_case fields as the rest of the main API, signed links for
// every file (only ever built from rows already checked to be the reader's), failures in the
// reader's language. Spec §3's image and video detail fields are all here.
import type { Locale } from '../../http/messages.js';
import type { FileLinks } from '../../storage/signed-file-links.js';
import { candidateSummary, failureView } from './failure.js';
import type { GenerationRepository } from './store/generation-repository.js';
import type {
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

export interface FileRef {
  file_id: string;
  url: string;
}

export interface UploadView {
  file_id: string;
  role: 'model' | 'pattern';
  position: number;
  url: string;
}

export interface VideoPromptView {
  id: number;
  image_id: number;
  position: number;
  prompt: string;
  camera: string[];
  scene: string | null;
  mood: string | null;
  model: string | null;
  edited: boolean;
  updated_at: string;
}

/** A candidate's label in the reader's language when the provider worded it in several, else as stored. */
export function wordedLabel(r: Pick<GeneratedImageRow, 'label' | 'labels_json'>, locale: Locale): string | null {
  const labels = parseObject(r.labels_json);
  const worded = labels?.[locale];
  return typeof worded === 'string' && worded ? worded : r.label;
}

export function createViewBuilder(repo: GenerationRepository, links: FileLinks, now: () => Date) {
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

  const imageView = (r: GeneratedImageRow, link: (id: string | null, stem: string) => string | null, locale: Locale) => ({
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
    async images(rows: GeneratedImageRow[], locale: Locale) {
      const link = await linker(imageFileIds(rows));
      return rows.map((r) => imageView(r, link, locale));
    },

    /** Spec §3 image detail: user prompt, uploads, moments text, video prompts, times, size, style, model. */
    async imageDetail(r: GeneratedImageRow, locale: Locale) {
      const request = r.request_id !== null ? await repo.request(r.request_id) : undefined;
      const [link, uploads, prompts, info] = await Promise.all([
        linker(imageFileIds([r])),
        uploadsOf(request ? [request.id] : []),
        repo.videoPrompts([r.id]),
        repo.fileMimeTypes([r.file_id]),
      ]);
      const analysis = request ? parseAnalysis(request.analysis_json) : undefined;
      return {
        ...imageView(r, link, locale),
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
    async requests(rows: GenerationRequestRow[], locale: Locale) {
      const ids = rows.map((r) => r.id);
      const [uploads, images] = await Promise.all([uploadsOf(ids), repo.imagesOfRequests(ids)]);
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
      }));
    },

    videoPrompt: promptView,

    async videos(rows: VideoGenerationRow[], locale: Locale) {
      const link = await linker(rows.flatMap((r) => [r.result_file_id, r.thumbnail_file_id]));
      return rows.map((r) => videoView(r, link, locale));
    },

    /** Spec §3 video detail: every field, with the source image's uploads and moments text. */
    async videoDetail(r: VideoGenerationRow, locale: Locale) {
      const source = r.source_image_id !== null ? await repo.image(r.source_image_id) : undefined;
      const request = source?.request_id ? await repo.request(source.request_id) : undefined;
      const [link, uploads] = await Promise.all([
        linker([r.result_file_id, r.thumbnail_file_id, r.first_frame_file_id, r.last_frame_file_id]),
        uploadsOf(request ? [request.id] : []),
      ]);
      const base = videoView(r, link, locale);
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

  function videoView(r: VideoGenerationRow, link: (id: string | null, stem: string) => string | null, locale: Locale) {
    return {
      id: r.id,
      kind: r.kind,
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
    };
  }
}

export type ViewBuilder = ReturnType<typeof createViewBuilder>;
