// "Use these settings" from history (#/video-generation?from=<image|video>:<id>): the image's
// detail (fabric form, prompt, description, uploads) and, for a video, its settings.
import { http } from '../../../lib/api';
import type { ApiSchema } from '../../../lib/api/api-types';
import type { GeneratedImage } from '../model/generation-types';

export type ImageDetail = GeneratedImage &
  Pick<ApiSchema<'ImageDetail'>, 'user_prompt' | 'description' | 'fabric' | 'video_prompts' | 'uploaded_images'>;

export type VideoDetail = Pick<
  ApiSchema<'VideoDetail'>,
  'id' | 'kind' | 'source_image_id' | 'last_image_id' | 'aspect' | 'duration' | 'resolution' | 'camera'
>;

export function fetchImageDetail(id: number, signal?: AbortSignal): Promise<ImageDetail> {
  return http.get<ImageDetail>('main', `/user/generated-images/${id}`, { signal });
}

export function fetchVideoDetail(id: number, signal?: AbortSignal): Promise<VideoDetail> {
  return http.get<VideoDetail>('main', `/user/video-generations/${id}`, { signal });
}

export function parseFrom(value: string | null): { kind: 'image' | 'video'; id: number } | null {
  const match = /^(image|video):(\d+)$/.exec(value ?? '');
  if (!match) return null;
  return { kind: match[1] === 'image' ? 'image' : 'video', id: Number(match[2]) };
}
