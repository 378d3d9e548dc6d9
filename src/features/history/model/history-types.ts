// What the history calls answer (main group, snake_case as the server sends it; spec §3 fields).
export type HistoryStatus = 'pending' | 'generating' | 'failed' | 'completed';
export type HistoryKind = 'images' | 'videos';

export interface ItemError {
  code: string;
  message: string;
}

export interface HistoryPage<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface GeneratedImage {
  id: number;
  request_id: number | null;
  generation_id: number | null;
  parent_image_id: number | null;
  source: 'original' | 'regenerated';
  position: number;
  status: HistoryStatus;
  prompt: string | null;
  label: string | null;
  aspect: string | null;
  style: string | null;
  model: string | null;
  provider: string | null;
  moments_text: string | null;
  width: number | null;
  height: number | null;
  url: string | null;
  thumbnail_url: string | null;
  error: ItemError | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface UploadedImage {
  file_id: string;
  role: 'model' | 'pattern';
  position: number;
  url: string;
}

export interface UploadedImages {
  model: UploadedImage[];
  pattern: UploadedImage[];
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

export interface ImageDetail extends GeneratedImage {
  user_prompt: string | null;
  description: string | null;
  client_request_id: string | null;
  uploaded_images: UploadedImages;
  video_prompts: VideoPromptView[];
  size: { width: number | null; height: number | null; mime_type: string | null };
}

export interface VideoGeneration {
  id: number;
  kind: 'standard' | 'first-last-frame';
  status: HistoryStatus;
  progress: number;
  source_image_id: number | null;
  user_prompt: string | null;
  video_prompt: string | null;
  aspect: string | null;
  duration: number;
  resolution: string | null;
  model: string | null;
  provider: string | null;
  width: number | null;
  height: number | null;
  url: string | null;
  thumbnail_url: string | null;
  error: ItemError | null;
  requested_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  processing_ms: number | null;
  created_at: string;
  updated_at: string;
}

export interface FrameRef {
  file_id: string;
  url: string | null;
}

export interface VideoDetail extends VideoGeneration {
  style: string | null;
  camera: string[];
  first_frame: FrameRef | null;
  last_frame: FrameRef | null;
  uploaded_images: UploadedImages;
  moments_text: string | null;
  image_prompt: string | null;
  generated_by: { provider: string | null; model: string | null };
  task_id: string | null;
  file_id: string | null;
  result_file_id: string | null;
  prompt_optimizer: boolean;
  watermark: boolean;
  can_retry: boolean;
  retry_of_id: number | null;
  video_prompt_id: number | null;
  last_image_id: number | null;
}
