// Video prompts of the built-in engine: for one chosen image, `count` distinct drafts from its
// measured facts and the fabric form: a close detail shot, a move that follows the pattern's own
// direction, and a reveal of the whole look, each with MiniMax camera commands in brackets
// ("[Push in]", "[Truck right, Push in]"), a scene and a mood, in the request's language. A video
// prompt describes the shot only: the designer's prompt of the run is the instruction written for
// the image step ("Analyse the model and pattern images …") and is never copied into it.
import {
  CAMERA_MOVES,
  type CameraMove,
  type Language,
  type PromptWriter,
  type PromptWriterInput,
  type VideoPromptDraft,
} from '../capabilities.js';
import { throwIfCancelled } from './cancellation.js';
import { catalogue } from './catalogue.js';
import type { ColorShare } from './dominant-colors.js';
import { colorList, moodOf, patternWords, trimmed } from './fact-words.js';
import { measureImage, type ImageFacts } from './image-facts.js';
import { LOCAL_PREVIEW_MODEL } from './model-name.js';
import { hexToRgb, rgbToLab, type Rgb } from './color-space.js';

/** MiniMax takes at most three moves in one bracket. */
export const MAX_COMBINED_MOVES = 3;
const MAX_PROMPT_LENGTH = 2000;

/** "[Push in]" or "[Truck right, Push in]". */
export function cameraCommand(moves: readonly CameraMove[]): string {
  return `[${moves.slice(0, MAX_COMBINED_MOVES).join(', ')}]`;
}

/** Camera moves named in a prompt's brackets, in order, at most three. */
export function cameraMovesInPrompt(prompt: string): CameraMove[] {
  const found: CameraMove[] = [];
  for (const bracket of prompt.matchAll(/\[([^\]]{1,120})\]/g)) {
    for (const part of (bracket[1] ?? '').split(',')) {
      const move = CAMERA_MOVES.find((m) => m.toLowerCase() === part.trim().toLowerCase());
      if (move && !found.includes(move)) found.push(move);
    }
  }
  return found.slice(0, MAX_COMBINED_MOVES);
}

type Shot = 'detail' | 'follow' | 'reveal';

/** The move that reads the pattern along its own lines. */
function followMoves(facts: ImageFacts): CameraMove[] {
  switch (facts.pattern.orientation) {
    case 'vertical':
      return ['Tilt up'];
    case 'horizontal':
      return ['Pan right'];
    case 'diagonal':
      return ['Truck right', 'Pedestal up'];
    case 'check':
      return ['Truck left', 'Push in'];
    case 'none':
      return ['Pan left'];
  }
}

function shotsFor(facts: ImageFacts): { shot: Shot; camera: CameraMove[] }[] {
  const portrait = facts.height > facts.width * 1.1;
  const shots: { shot: Shot; camera: CameraMove[] }[] = [
    { shot: 'detail', camera: facts.pattern.kind === 'solid' ? ['Zoom in'] : ['Push in'] },
    { shot: 'follow', camera: followMoves(facts) },
    { shot: 'reveal', camera: portrait ? ['Tracking shot'] : ['Pull out', 'Pedestal up'] },
  ];
  // Further drafts: the same three shots with other moves.
  const more: { shot: Shot; camera: CameraMove[] }[] = [
    { shot: 'detail', camera: ['Static shot'] },
    { shot: 'follow', camera: ['Truck left'] },
    { shot: 'reveal', camera: ['Pull out'] },
    { shot: 'detail', camera: ['Zoom in', 'Pan right'] },
    { shot: 'follow', camera: ['Pedestal down'] },
    { shot: 'reveal', camera: ['Shake', 'Push in'] },
  ];
  return [...shots, ...more];
}

function analysisPalette(colors: { hex: string; share: number }[] | undefined): ColorShare[] {
  return (colors ?? []).flatMap((c) => {
    try {
      const rgb = hexToRgb(c.hex) as Rgb;
      return [{ rgb, lab: rgbToLab(rgb[0], rgb[1], rgb[2]), hex: c.hex, share: c.share }];
    } catch {
      return [];
    }
  });
}

export function writePrompts(facts: ImageFacts, input: Omit<PromptWriterInput, 'image' | 'signal'>): VideoPromptDraft[] {
  const language: Language = input.language;
  const c = catalogue(language);
  const sep = language === 'zh-CN' ? '' : ' ';
  const words = patternWords(facts.pattern, language);
  const palette = analysisPalette(input.analysis?.colors);
  const colors = colorList(palette.length ? palette : facts.colors, language, { limit: 3 });
  const subject = c.video.subject(trimmed(input.fabric.fabric_name));
  const pattern = c.patternShort(words);
  const mood = c.moodWords[moodOf(facts.tone)];
  const designerScene = trimmed(input.fabric.scene);
  const count = Math.max(0, Math.min(12, Math.floor(input.count)));
  return shotsFor(facts)
    .slice(0, count)
    .map(({ shot, camera }, i) => {
      const cams = cameraCommand(camera);
      const scene = designerScene || c.video.defaultScenes[i % 3] || '';
      const action =
        shot === 'detail'
          ? c.video.detail({ cams, subject, pattern, colors, luster: trimmed(input.fabric.luster) })
          : shot === 'follow'
            ? c.video.follow({ cams, subject, pattern, drape: trimmed(input.fabric.drape) })
            : c.video.reveal({ cams, subject, hand: trimmed(input.fabric.touch) });
      const text = [action, c.video.scene(scene), c.video.mood(mood)].filter(Boolean).join(sep);
      // Cut by code points, not UTF-16 units, so a long designer's scene never ends in half a character.
      const prompt = Array.from(text).slice(0, MAX_PROMPT_LENGTH).join('');
      return { prompt, camera, scene, mood };
    });
}

export function createLocalPromptWriter(): PromptWriter {
  return {
    async writeVideoPrompts(input: PromptWriterInput) {
      throwIfCancelled(input.signal);
      const facts = await measureImage(input.image.data);
      throwIfCancelled(input.signal);
      return { prompts: writePrompts(facts, input), model: LOCAL_PREVIEW_MODEL };
    },
  };
}
