// The whole state of one run of the video workflow, as kept in IndexedDB: what the designer typed
// and chose, and the ids of the work the server holds for it.
import type { CameraMove } from '../../../../shared/generation/camera-moves';
import { emptyFabricForm, type FabricForm } from './fabric-form';
import type { GeneratedImage, VideoPromptView, VideoSettings, VideoView } from './generation-types';
import type { ImageRole } from './image-limits';
import type { StepId } from './workflow-steps';
import { randomUuid } from '../../../lib/random-uuid';

export interface DraftFile {
  id: string;
  role: ImageRole;
  name: string;
  blob: Blob;
}

export interface DraftPrompt {
  id: number;
  imageId: number;
  text: string;
  camera: CameraMove[];
  /** Edited here and not yet saved on the server. */
  dirty: boolean;
}

export interface VideoDraft {
  userKey: string;
  savedAt: number;
  step: StepId;
  furthest: StepId;
  mode: 'fine' | 'quick';
  form: FabricForm;
  description: string;
  files: DraftFile[];
  promptSelected: boolean;
  promptText: string;
  /** The analyse request being run or last run; a resend joins the same work. */
  requestId: string | null;
  /** The request id's inputs were sent: a reload resumes instead of restarting. */
  analysisStarted: boolean;
  analysisText: string;
  analysisModel: string | null;
  candidates: GeneratedImage[];
  /** Why some candidates are missing ("1 of 6 images not made: …"), in the server's words; absent in older drafts. */
  candidatesNotice?: string | null;
  selectedImageIds: number[];
  videoPrompts: DraftPrompt[];
  promptErrors: Record<number, string>;
  selectedPromptIds: number[];
  settings: Record<number, VideoSettings>;
  videos: VideoView[];
}

export function emptyDraft(userKey: string): VideoDraft {
  return {
    userKey,
    savedAt: Date.now(),
    step: 'info',
    furthest: 'info',
    mode: 'fine',
    form: emptyFabricForm(),
    description: '',
    files: [],
    promptSelected: false,
    promptText: '',
    requestId: null,
    analysisStarted: false,
    analysisText: '',
    analysisModel: null,
    candidates: [],
    candidatesNotice: null,
    selectedImageIds: [],
    videoPrompts: [],
    promptErrors: {},
    selectedPromptIds: [],
    settings: {},
    videos: [],
  };
}

export function toggle(list: number[], id: number): number[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

/** Shared with the workshop's stream (src/lib/api/streamed-text.ts). */
export { placeStreamed } from '../../../lib/api/streamed-text';

/** Images merged by id (a recovered list and the streamed one), in arrival order. */
export function mergeImages(current: GeneratedImage[], incoming: GeneratedImage[]): GeneratedImage[] {
  const byId = new Map(current.map((i) => [i.id, i]));
  for (const image of incoming) byId.set(image.id, { ...byId.get(image.id), ...image });
  return [...byId.values()];
}

export function mergeVideos(current: VideoView[], incoming: VideoView[]): VideoView[] {
  const byId = new Map(current.map((v) => [v.id, v]));
  for (const video of incoming) byId.set(video.id, video);
  return [...byId.values()];
}

export function promptsFromServer(prompts: VideoPromptView[]): DraftPrompt[] {
  return [...prompts]
    .sort((a, b) => a.position - b.position)
    .map((p) => ({ id: p.id, imageId: p.image_id, text: p.prompt, camera: p.camera, dirty: false }));
}

/** Quick mode: the first prompt of each selected image. */
export function defaultPromptIds(prompts: DraftPrompt[], imageIds: number[]): number[] {
  return imageIds.flatMap((id) => {
    const first = prompts.find((p) => p.imageId === id);
    return first ? [first.id] : [];
  });
}

export const newRequestId = (): string => randomUuid();
