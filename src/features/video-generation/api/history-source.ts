// "Use these settings" from history (#/video-generation?from=<image|video>:<id>): the image's
// detail (fabric form, prompt, description, uploads) and, for a video, its settings.
import { http } from '../../../lib/api';
import type { GeneratedImage, VideoPromptView } from '../model/generation-types';

export interface ImageDetail extends GeneratedImage {
  user_prompt: string | null;
  description: string | null;
  fabric: Record<string, string>;
  video_prompts?: VideoPromptView[];
  uploaded_images: { model: { url: string; position: number }[]; pattern: { url: string; position: number }[] };
}

export interface VideoDetail {
  id: number;
  kind: 'standard' | 'first-last-frame';
  source_image_id: number | null;
  last_image_id: number | null;
  aspect: string;
  duration: number;
  resolution: string;
  camera: string[];
}

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
