// The words a row's override cells may use, in all five languages at once (a sheet is read in any
// of them, whatever the page's language): yes and no for the stop for review, the aspects' and the
// camera moves' names as the settings form shows them, and a unit after a duration ("10 秒",
// "6 giây"). Built from the dictionaries' own strings, like the header words.
import { VIDEO_ASPECTS, type VideoAspect } from '../../../shared/collections/collection-types';
import { CAMERA_MOVES, type CameraMove } from '../../../shared/generation/camera-moves';
import { normalizeWord, splitWords } from './words';

/** The part of one language's dictionary the override words read. */
export interface OverrideLanguageWords {
  videoGeneration: { camera: Partial<Record<string, string>> };
  collections: {
    settings: { aspects: Record<VideoAspect, string> };
    overrideWords: Record<'yes' | 'no' | 'seconds', string>;
  };
}

export interface OverrideWords {
  /** A normalized yes or no word → whether the row stops for review. */
  stop: Map<string, boolean>;
  aspects: Map<string, VideoAspect>;
  camera: Map<string, CameraMove>;
  /** Normalized units a duration may carry. */
  seconds: Set<string>;
}

/** The settings form's label of a camera move is keyed by the move without its spaces. */
const cameraKey = (move: CameraMove) => move.replace(/\s+/g, '');

export function buildOverrideWords(dictionaries: readonly OverrideLanguageWords[]): OverrideWords {
  const words: OverrideWords = { stop: new Map(), aspects: new Map(), camera: new Map(), seconds: new Set() };
  // The first language to claim a word keeps it, as with the header words.
  const put = <T>(map: Map<string, T>, word: string, value: T) => {
    if (word && !map.has(word)) map.set(word, value);
  };
  // The values themselves ("vertical", "Push in") are words in every sheet.
  for (const aspect of VIDEO_ASPECTS) put(words.aspects, normalizeWord(aspect), aspect);
  for (const move of CAMERA_MOVES) put(words.camera, normalizeWord(move), move);
  for (const { videoGeneration, collections } of dictionaries) {
    for (const w of splitWords(collections.overrideWords.yes)) put(words.stop, w, true);
    for (const w of splitWords(collections.overrideWords.no)) put(words.stop, w, false);
    for (const w of splitWords(collections.overrideWords.seconds)) words.seconds.add(w);
    for (const aspect of VIDEO_ASPECTS)
      put(words.aspects, normalizeWord(collections.settings.aspects[aspect]), aspect);
    for (const move of CAMERA_MOVES) {
      const label = videoGeneration.camera[cameraKey(move)];
      if (label) put(words.camera, normalizeWord(label), move);
    }
  }
  return words;
}
