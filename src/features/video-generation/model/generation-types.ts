// The generation calls' answers as far as this page reads them: picks of the server's schemas
// (generated API types), so a renamed or retyped field fails here; the workflow's own settings.
// Here request_id is only ever the client's id (ImageRequestView's, the draft's requestId): an
// image's request_id, the row id of its request (see the server's generation-views.ts), is not read.
import type { ApiSchema } from '../../../lib/api/api-types';
import type { CameraMove } from '../../../../shared/generation/camera-moves';

export type GeneratedImage = Pick<
  ApiSchema<'GeneratedImage'>,
  | 'id'
  | 'source'
  | 'status'
  | 'label'
  | 'prompt'
  | 'model'
  | 'provider'
  | 'moments_text'
  | 'url'
  | 'thumbnail_url'
  | 'width'
  | 'height'
>;

export type ImageRequestView = Pick<
  ApiSchema<'ImageRequest'>,
  'id' | 'request_id' | 'status' | 'analysis_text' | 'model' | 'provider' | 'error' | 'candidates'
> & { images: GeneratedImage[] };

export type VideoPromptView = Pick<
  ApiSchema<'VideoPrompt'>,
  'id' | 'image_id' | 'position' | 'prompt' | 'camera'
>;

type VideoGeneration = ApiSchema<'VideoGeneration'>;
export type VideoStatus = VideoGeneration['status'];

export type VideoView = Pick<
  VideoGeneration,
  | 'id'
  | 'kind'
  | 'status'
  | 'progress'
  | 'source_image_id'
  | 'video_prompt'
  | 'aspect'
  | 'duration'
  | 'resolution'
  | 'model'
  | 'provider'
  | 'url'
  | 'thumbnail_url'
  | 'error'
> & {
  /** Client side only: the last progress words of the events stream ("Sampling: step 12 of 20"). */
  progress_message?: string;
};

/** What one video of POST /user/video-generations asks for. */
export type VideoSpecBody = ApiSchema<'VideoSpecInput'>;
export type Aspect = NonNullable<VideoSpecBody['aspect']>;
export type VideoKind = VideoGeneration['kind'];
export type Resolution = NonNullable<VideoSpecBody['resolution']>;
export type Duration = 6 | 10;

export const ASPECTS: Aspect[] = ['auto', 'square', 'vertical', 'horizontal'];
export const RESOLUTIONS: Resolution[] = ['512P', '768P', '1080P'];
export const DURATIONS: Duration[] = [6, 10];
export { CAMERA_MOVES, MAX_CAMERA_MOVES } from '../../../../shared/generation/camera-moves';

export interface VideoSettings {
  kind: VideoKind;
  lastImageId: number | null;
  aspect: Aspect;
  duration: Duration;
  resolution: Resolution;
  camera: CameraMove[];
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

/** A cancelled video ends as failed, its error's code `cancelled`. */
export function isFinished(status: VideoStatus): boolean {
  return status === 'completed' || status === 'failed';
}
