// What a row's override cells say: each read into the part of the create call's ItemOverrides it
// sets, or the reason it cannot be (a problem key under collections.problems with its values). An
// empty cell overrides nothing. The bounds are the settings form's: 1..6 candidates, 6 or 10
// seconds, its four aspects and three resolutions, at most 3 camera moves.
import {
  MAX_COLLECTION_CANDIDATES,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
  type ItemOverrides,
} from '../../../shared/collections/collection-types';
import { MAX_CAMERA_MOVES, type CameraMove } from '../../../shared/generation/camera-moves';
import type { OverrideWords } from './override-words';
import { isOverrideField, type OverrideField, type SheetField } from './sheet-fields';
import { normalizeWord } from './words';

export type OverrideProblemKey =
  | 'badCandidates'
  | 'badStopForReview'
  | 'badDuration'
  | 'badAspect'
  | 'badResolution'
  | 'badCamera'
  | 'tooManyCameraMoves';

export type OverrideReading =
  | { ok: true; overrides: ItemOverrides }
  | { ok: false; key: OverrideProblemKey; values: Record<string, string | number> };

/** Camera moves in one cell: "Push in, Pan left", "推进、左摇", one per line. */
const MOVE_SEPARATORS = /[,;|/+\n，；、]+/;
const DURATION = /^(\d+)\s*(.*)$/s;

const read = (overrides: ItemOverrides): OverrideReading => ({ ok: true, overrides });
const bad = (key: OverrideProblemKey, values: Record<string, string | number>): OverrideReading => ({
  ok: false,
  key,
  values,
});

function readCamera(words: OverrideWords, text: string): OverrideReading {
  const moves: CameraMove[] = [];
  for (const part of text.split(MOVE_SEPARATORS)) {
    const name = part.trim();
    if (!name) continue;
    const move = words.camera.get(normalizeWord(name));
    if (!move) return bad('badCamera', { value: name });
    if (!moves.includes(move)) moves.push(move);
  }
  if (moves.length > MAX_CAMERA_MOVES)
    return bad('tooManyCameraMoves', { count: moves.length, max: MAX_CAMERA_MOVES });
  return read(moves.length > 0 ? { video: { camera: moves } } : {});
}

/** One override cell read: what it sets, or why it cannot. */
export function readOverride(words: OverrideWords, field: OverrideField, cell: string): OverrideReading {
  const text = cell.trim();
  if (!text) return read({});
  // Full-width digits and letters ("６", "１０８０Ｐ") read as their plain selves.
  const plain = text.normalize('NFKC');
  const word = normalizeWord(text);
  switch (field) {
    case 'image_prompt':
      return read({ image_prompt: text });
    case 'candidates': {
      const count = /^\d+$/.test(plain) ? Number(plain) : NaN;
      return count >= 1 && count <= MAX_COLLECTION_CANDIDATES
        ? read({ candidates: count })
        : bad('badCandidates', { value: text, min: 1, max: MAX_COLLECTION_CANDIDATES });
    }
    case 'stop_for_review': {
      const stop = words.stop.get(word);
      return stop === undefined ? bad('badStopForReview', { value: text }) : read({ stop_for_review: stop });
    }
    case 'video_duration': {
      const m = DURATION.exec(plain);
      const unit = m ? normalizeWord(m[2]!) : '';
      const duration = VIDEO_DURATIONS.find((d) => m && d === Number(m[1]));
      return duration !== undefined && (!unit || words.seconds.has(unit))
        ? read({ video: { duration } })
        : bad('badDuration', { value: text, min: VIDEO_DURATIONS[0], max: VIDEO_DURATIONS[1] });
    }
    case 'video_aspect': {
      const aspect = words.aspects.get(word);
      return aspect ? read({ video: { aspect } }) : bad('badAspect', { value: text });
    }
    case 'video_resolution': {
      // "1080P", "1080p" and "1080" are one resolution.
      const resolution = VIDEO_RESOLUTIONS.find((r) => normalizeWord(r) === word || normalizeWord(r) === `${word}p`);
      return resolution
        ? read({ video: { resolution } })
        : bad('badResolution', { value: text, choices: VIDEO_RESOLUTIONS.join(', ') });
    }
    case 'video_camera':
      return readCamera(words, text);
  }
}

/** One row's overrides from its override columns, or undefined when it overrides nothing (or a cell is bad). */
export function rowOverrides(
  words: OverrideWords,
  mapping: readonly (SheetField | null)[],
  cells: readonly string[],
): ItemOverrides | undefined {
  let overrides: ItemOverrides = {};
  for (const [column, field] of mapping.entries()) {
    if (!isOverrideField(field)) continue;
    const reading = readOverride(words, field, cells[column] ?? '');
    if (!reading.ok) return undefined;
    const { video, ...rest } = reading.overrides;
    overrides = { ...overrides, ...rest, ...(video ? { video: { ...overrides.video, ...video } } : {}) };
  }
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}
