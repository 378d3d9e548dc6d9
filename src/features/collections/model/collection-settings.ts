// A collection's settings as the import page edits them: the defaults a new collection opens with,
// and what stops Start (each problem names its field). The contract's bounds: candidates 1..6,
// at most 3 camera moves, the prompt no longer than the image prompt the workflow takes.
import {
  MAX_COLLECTION_CANDIDATES,
  VIDEO_ASPECTS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
  type CollectionSettings,
} from '../../../../shared/collections/collection-types';
import { CAMERA_MOVES, MAX_CAMERA_MOVES, type CameraMove } from '../../../../shared/generation/camera-moves';
import { PROMPT_MAX_LENGTH } from '../../../../shared/prompts/prompt-rules';

/** The spec's prompt text bound (§9), as the workflow's prompt field has it. */
export const MAX_IMAGE_PROMPT_LENGTH = PROMPT_MAX_LENGTH;
/** The name a collection's list shows. */
export const MAX_COLLECTION_NAME_LENGTH = 100;
export const DEFAULT_CANDIDATES = 4;

export function defaultSettings(imagePrompt = ''): CollectionSettings {
  return {
    image_prompt: imagePrompt,
    candidates: DEFAULT_CANDIDATES,
    pick_rule: 'score',
    stop_for_review: true,
    video: { kind: 'standard', aspect: 'auto', camera: [], duration: 6, resolution: '768P' },
  };
}

export type SettingsProblem =
  | { field: 'name'; kind: 'required' | 'tooLong'; max?: number }
  | { field: 'image_prompt'; kind: 'required' | 'tooLong'; max?: number }
  | { field: 'candidates'; kind: 'range'; min: number; max: number }
  | { field: 'camera'; kind: 'tooMany' | 'unknown'; max?: number };

/** What stops Start: an empty or over-long name or prompt, candidates out of 1..6, camera moves past 3. */
export function settingsProblems(name: string, settings: CollectionSettings): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const trimmedName = name.trim();
  if (!trimmedName) problems.push({ field: 'name', kind: 'required' });
  else if (trimmedName.length > MAX_COLLECTION_NAME_LENGTH)
    problems.push({ field: 'name', kind: 'tooLong', max: MAX_COLLECTION_NAME_LENGTH });
  const prompt = settings.image_prompt.trim();
  if (!prompt) problems.push({ field: 'image_prompt', kind: 'required' });
  else if (prompt.length > MAX_IMAGE_PROMPT_LENGTH)
    problems.push({ field: 'image_prompt', kind: 'tooLong', max: MAX_IMAGE_PROMPT_LENGTH });
  const { candidates } = settings;
  if (!Number.isInteger(candidates) || candidates < 1 || candidates > MAX_COLLECTION_CANDIDATES)
    problems.push({ field: 'candidates', kind: 'range', min: 1, max: MAX_COLLECTION_CANDIDATES });
  if (settings.video.camera.length > MAX_CAMERA_MOVES)
    problems.push({ field: 'camera', kind: 'tooMany', max: MAX_CAMERA_MOVES });
  if (settings.video.camera.some((move) => !(CAMERA_MOVES as readonly string[]).includes(move)))
    problems.push({ field: 'camera', kind: 'unknown' });
  return problems;
}

/** The camera moves with one turned on or off; a fourth is not added. */
export function toggleCamera(camera: readonly CameraMove[], move: CameraMove): CameraMove[] {
  if (camera.includes(move)) return camera.filter((m) => m !== move);
  return camera.length >= MAX_CAMERA_MOVES ? [...camera] : [...camera, move];
}

/** Settings read back from storage: anything missing or out of bounds takes its default. */
export function normalizeSettings(stored: Partial<CollectionSettings> | undefined): CollectionSettings {
  const base = defaultSettings();
  if (!stored) return base;
  const video: Partial<CollectionSettings['video']> = stored.video ?? {};
  const candidates = Number(stored.candidates);
  return {
    image_prompt: typeof stored.image_prompt === 'string' ? stored.image_prompt : base.image_prompt,
    candidates:
      Number.isInteger(candidates) && candidates >= 1 && candidates <= MAX_COLLECTION_CANDIDATES
        ? candidates
        : base.candidates,
    pick_rule: stored.pick_rule === 'model' ? 'model' : 'score',
    stop_for_review: typeof stored.stop_for_review === 'boolean' ? stored.stop_for_review : base.stop_for_review,
    video: {
      kind: 'standard',
      aspect: VIDEO_ASPECTS.find((a) => a === video.aspect) ?? base.video.aspect,
      camera: (video.camera ?? [])
        .filter((m): m is CameraMove => (CAMERA_MOVES as readonly string[]).includes(m))
        .slice(0, MAX_CAMERA_MOVES),
      duration: VIDEO_DURATIONS.find((d) => d === video.duration) ?? base.video.duration,
      resolution: VIDEO_RESOLUTIONS.find((r) => r === video.resolution) ?? base.video.resolution,
    },
  };
}
