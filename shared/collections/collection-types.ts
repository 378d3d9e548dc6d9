// A collection's calls as both runtimes read them: what the import page sends to start one, and
// the views the grid and its event stream answer. The server's zod schemas (server/modules/
// collections/) are checked against these types, so a field renamed on one side fails the other's
// type-check.
import type { CameraMove } from '../generation/camera-moves.js';
import type { Language } from '../i18n/languages.js';

export const ITEM_STATUSES = ['queued', 'running', 'review', 'done', 'failed', 'skipped', 'cancelled'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The stages of one fabric, in order: the one running, the next to run, or the one that failed. */
export const STAGES = ['analysis', 'candidates', 'pick', 'video_prompts', 'video'] as const;
export type Stage = (typeof STAGES)[number];

export const COLLECTION_STATUSES = ['running', 'paused', 'cancelled', 'completed'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

export const PICK_RULES = ['score', 'model'] as const;
export type PickRule = (typeof PICK_RULES)[number];
export type PickBy = 'score' | 'model' | 'person';

/** The video's choices, in the order the settings form offers them (a sheet's override column reads them too). */
export const VIDEO_ASPECTS = ['auto', 'square', 'vertical', 'horizontal'] as const;
export type VideoAspect = (typeof VIDEO_ASPECTS)[number];
export const VIDEO_DURATIONS = [6, 10] as const;
export type VideoDuration = (typeof VIDEO_DURATIONS)[number];
export const VIDEO_RESOLUTIONS = ['512P', '768P', '1080P'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

/**
 * Items of one collection in their stages at once; the next waits for one to leave. Three keep the
 * built-in engine's two lanes busy: one item's video renders, the next waits for the renderer,
 * and a third goes through its image stages meanwhile.
 */
export const COLLECTION_ACTIVE_ITEMS = 3;
/** Rows one collection may have (the sheet's bound). */
export const MAX_COLLECTION_ITEMS = 500;
/** Images one collection may send in all (500 rows of at most 10 images). */
export const MAX_COLLECTION_IMAGES = 5000;
/** Candidates kept per fabric: 1 to this. */
export const MAX_COLLECTION_CANDIDATES = 6;

export interface CollectionVideoSettings {
  kind: 'standard';
  aspect: VideoAspect;
  camera: CameraMove[];
  duration: VideoDuration;
  resolution: VideoResolution;
}

export interface CollectionSettings {
  /** The image prompt: typed, or taken from prompt management by the page. */
  image_prompt: string;
  /** Candidates made and kept per fabric, 1..6. */
  candidates: number;
  pick_rule: PickRule;
  /** Stop after the pick for the person's review, or run through to the video. */
  stop_for_review: boolean;
  video: CollectionVideoSettings;
}

/** What one row may change of its collection's settings (the video's fields one by one). */
export interface ItemOverrides {
  image_prompt?: string;
  candidates?: number;
  stop_for_review?: boolean;
  video?: Partial<CollectionVideoSettings>;
}

export interface CreateCollectionItem {
  code: string;
  name?: string;
  /** The fabric form's fields (shared/fabric/fabric-fields.ts), as the sheet gave them. */
  fabric: Record<string, string>;
  description?: string;
  overrides?: ItemOverrides;
  /** Finished tus uploads (purpose "collection") of the caller. */
  model_upload_ids: string[];
  pattern_upload_ids: string[];
}

export interface CreateCollection {
  client_collection_id: string;
  name: string;
  language: Language;
  settings: CollectionSettings;
  items: CreateCollectionItem[];
}

export type ImageStatus = 'pending' | 'generating' | 'failed' | 'completed';

export interface CandidateView {
  image_id: number;
  position: number;
  status: ImageStatus;
  url: string | null;
  thumbnail_url: string | null;
  /** The built-in score (0..1) when the pick rule measured it. */
  score: number | null;
  /** The candidate's place (1 = best) in the text model's ranking, when the model picked. */
  model_rank: number | null;
}

export interface CollectionVideoView {
  id: number;
  status: ImageStatus;
  progress: number;
  url: string | null;
  thumbnail_url: string | null;
}

export interface CollectionItemView {
  id: number;
  position: number;
  code: string;
  name: string | null;
  status: ItemStatus;
  stage: Stage;
  /** The failure in the reader's language. */
  error: { code: string; message: string } | null;
  request_id: number | null;
  candidates: CandidateView[];
  picked_image_id: number | null;
  pick_by: PickBy | null;
  /** What the pick rule measured, or the text model's reason for its first choice, in words. */
  pick_reason: string | null;
  video_prompt: string | null;
  video: CollectionVideoView | null;
  updated_at: string;
}

export type StageCounts = Record<ItemStatus, number>;

export interface CollectionSummary {
  id: number;
  client_collection_id: string;
  name: string;
  status: CollectionStatus;
  total: number;
  counts: StageCounts;
  created_at: string;
  completed_at: string | null;
}

export interface CollectionView extends CollectionSummary {
  settings: CollectionSettings;
  language: Language;
  /** Items at each stage that are queued or running. */
  by_stage: Record<Stage, number>;
  /** Time left, from this collection's measured stage durations; null until one item is done. */
  estimate_ms: number | null;
  items: CollectionItemView[];
}

export type CollectionEvent =
  | { type: 'snapshot'; collection: CollectionView }
  | {
      type: 'item';
      item: CollectionItemView;
      counts: StageCounts;
      by_stage: Record<Stage, number>;
      estimate_ms: number | null;
    }
  | { type: 'status'; status: CollectionStatus }
  | { type: 'progress'; item_id: number; stage: Stage; progress: number }
  | { type: 'end'; collection: CollectionView };

/** What the create call and the commands (pause, resume, cancel, item moves) answer; the page reads the view again. */
export interface CollectionRef {
  id: number;
  client_collection_id: string;
  status: CollectionStatus;
}
