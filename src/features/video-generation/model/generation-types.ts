// The shapes the generation calls answer with (server/modules/generation/generation-views.ts),
// as far as this page reads them.
export interface GeneratedImage {
  id: number;
  request_id: number | null;
  source: 'original' | 'regenerated';
  status: string;
  label: string | null;
  prompt: string | null;
  model: string | null;
  provider: string | null;
  moments_text: string | null;
  url: string | null;
  thumbnail_url: string | null;
  width: number | null;
  height: number | null;
}

export interface ImageRequestView {
  id: number;
  request_id: string;
  status: 'pending' | 'generating' | 'completed' | 'failed';
  analysis_text: string | null;
  model: string | null;
  provider: string | null;
  error: { code: string; message: string } | null;
  images: GeneratedImage[];
  /** How the six candidates ended: made, refused, and why some are missing (null when none is). */
  candidates?: { made: number; refused: number; total: number; message: string | null };
}

export interface VideoPromptView {
  id: number;
  image_id: number;
  position: number;
  prompt: string;
  camera: string[];
}

export type VideoStatus = 'pending' | 'generating' | 'completed' | 'failed' | 'cancelled';

export interface VideoView {
  id: number;
  kind: 'standard' | 'first-last-frame';
  status: VideoStatus;
  progress: number;
  source_image_id: number | null;
  video_prompt: string | null;
  aspect: string;
  duration: number;
  resolution: string;
  model: string | null;
  provider: string | null;
  url: string | null;
  thumbnail_url: string | null;
  error: { code: string; message: string } | null;
  /** Client side only: the last progress words of the events stream ("Sampling: step 12 of 20"). */
  progress_message?: string;
}

export type Aspect = 'square' | 'vertical' | 'horizontal' | 'auto';
export type VideoKind = 'standard' | 'first-last-frame';
export type Resolution = '512P' | '768P' | '1080P';
export type Duration = 6 | 10;

export const ASPECTS: Aspect[] = ['auto', 'square', 'vertical', 'horizontal'];
export const RESOLUTIONS: Resolution[] = ['512P', '768P', '1080P'];
export const DURATIONS: Duration[] = [6, 10];
export const MAX_CAMERA_MOVES = 3;
export const CAMERA_MOVES = [
  'Static shot',
  'Push in',
  'Pull out',
  'Pan left',
  'Pan right',
  'Tilt up',
  'Tilt down',
  'Zoom in',
  'Zoom out',
  'Tracking shot',
  'Truck left',
  'Truck right',
  'Pedestal up',
  'Pedestal down',
  'Shake',
] as const;

export interface VideoSettings {
  kind: VideoKind;
  lastImageId: number | null;
  aspect: Aspect;
  duration: Duration;
  resolution: Resolution;
  camera: string[];
}

export const DEFAULT_VIDEO_SETTINGS: VideoSettings = {
  kind: 'standard',
  lastImageId: null,
  aspect: 'auto',
  duration: 6,
  resolution: '768P',
  camera: [],
};

/** The built-in engine's results say so in their provider or model name. */
export function isLocalPreview(item: { provider: string | null; model: string | null }): boolean {
  return item.provider === 'local' || /local preview/i.test(item.model ?? '');
}

export function isFinished(status: VideoStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
