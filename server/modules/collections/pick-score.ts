// The built-in pick rule: which candidate of a fabric shows the fabric best, measured from the
// pixels alone, so the same images always give the same pick. Detail is the mean edge strength
// (a sharp, textured render scores higher than a flat or blurred one); colour match is how close
// the candidate's mean Lab colour is to the pattern images'. Score = half of each; a tie goes to
// the lower position.
import sharp from 'sharp';
import type { ModelFallbackCause } from './model-pick.js';

/** Longest side the measures look at: enough for edges and colour, cheap on the local lane. */
const MEASURE_SIDE = 128;
/** A Lab distance (CIE76) at which the colour match reaches 0: a different colour altogether. */
const NO_MATCH_DISTANCE = 100;

export interface ScoredCandidate {
  image_id: number;
  position: number;
  detail: number;
  colour: number;
  score: number;
}

export interface PickJson {
  rule: 'score';
  measures: 'detail and colour match to the pattern';
  /** Set when the collection asked for the model's ranking and this rule stood in (model-pick.ts). */
  fallback?: { from: 'model'; cause: ModelFallbackCause; reason: string };
  scores: { image_id: number; detail: number; colour: number; score: number }[];
}

type Lab = [number, number, number];

/** Mean edge strength of the image, 0..1: the mean absolute difference to the right and lower neighbours. */
export async function detailOf(data: Buffer): Promise<number> {
  const { data: px, info } = await sharp(data)
    .resize(MEASURE_SIDE, MEASURE_SIDE, { fit: 'inside' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  let sum = 0;
  let count = 0;
  for (let y = 0; y < height - 1; y += 1) {
    for (let x = 0; x < width - 1; x += 1) {
      const i = (y * width + x) * channels;
      const here = px[i]!;
      sum += Math.abs(here - px[i + channels]!) + Math.abs(here - px[i + width * channels]!);
      count += 2;
    }
  }
  // Edges are rarely more than half the range on average: doubled and capped, a busy print reads near 1.
  return count === 0 ? 0 : Math.min(1, (2 * sum) / (count * 255));
}

/** The image's mean colour in CIE Lab (D65). */
export async function meanLab(data: Buffer): Promise<Lab> {
  const { data: px, info } = await sharp(data)
    .resize(MEASURE_SIDE, MEASURE_SIDE, { fit: 'inside' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  const total: Lab = [0, 0, 0];
  for (let i = 0; i < n; i += 1) {
    const lab = rgbToLab(px[i * info.channels]!, px[i * info.channels + 1]!, px[i * info.channels + 2]!);
    total[0] += lab[0];
    total[1] += lab[1];
    total[2] += lab[2];
  }
  return n === 0 ? [0, 0, 0] : [total[0] / n, total[1] / n, total[2] / n];
}

function rgbToLab(r: number, g: number, b: number): Lab {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [R, G, B] = [linear(r), linear(g), linear(b)];
  const x = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;

/**
 * Scores each candidate against the pattern images and answers them best first (ties: lower
 * position). With no pattern image the colour match is 0 for every candidate: detail decides.
 */
export async function scoreCandidates(
  candidates: { image_id: number; position: number; data: Buffer }[],
  patterns: Buffer[],
): Promise<ScoredCandidate[]> {
  let target: Lab | undefined;
  if (patterns.length > 0) {
    const labs: Lab[] = [];
    // One at a time: a fabric's images stay few in memory at once.
    for (const p of patterns) labs.push(await meanLab(p));
    target = [0, 1, 2].map((k) => labs.reduce((s, l) => s + l[k]!, 0) / labs.length) as Lab;
  }
  const scored: ScoredCandidate[] = [];
  for (const c of candidates) {
    const detail = await detailOf(c.data);
    let colour = 0;
    if (target) {
      const lab = await meanLab(c.data);
      const distance = Math.hypot(lab[0] - target[0], lab[1] - target[1], lab[2] - target[2]);
      colour = Math.max(0, 1 - distance / NO_MATCH_DISTANCE);
    }
    scored.push({ image_id: c.image_id, position: c.position, detail: round(detail), colour: round(colour), score: round(0.5 * detail + 0.5 * colour) });
  }
  return scored.sort((a, b) => b.score - a.score || a.position - b.position);
}

/** What the item keeps of the pick (pick_json). */
export function pickJson(scored: ScoredCandidate[], fallback?: PickJson['fallback']): PickJson {
  return {
    rule: 'score',
    measures: 'detail and colour match to the pattern',
    ...(fallback ? { fallback } : {}),
    scores: scored.map(({ image_id, detail, colour, score }) => ({ image_id, detail, colour, score })),
  };
}
