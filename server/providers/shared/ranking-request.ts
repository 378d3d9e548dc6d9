// What a text model is asked when it ranks a fabric's candidates, shared by the Gemini and
// OpenAI-compatible adapters: the instructions, the fabric facts as text, and every image made
// small (a ranking needs the look, not the detail), so one request of six candidates and the
// pattern stays a few hundred kilobytes.
import sharp from 'sharp';
import { MAX_COLLECTION_CANDIDATES } from '../../../shared/collections/collection-types.js';
import { ProviderError, type InputImage, type Language, type RankCandidatesInput } from '../capabilities.js';
import { fabricLines, LANGUAGE_NAME } from './instructions.js';

/** Longest side of every image sent for a ranking. */
export const RANKING_IMAGE_SIDE = 512;
/** Pattern images sent with a ranking: the first few show the fabric well enough. */
const MAX_PATTERN_IMAGES = 2;
/** The analysis prose is context only; a long one is cut here. */
const MAX_ANALYSIS_CHARS = 4_000;

export function rankingInstructions(language: Language): string {
  return [
    'You are a fashion art director choosing the best picture of a fabric for a designer.',
    'You get the fabric information, the pattern images (the fabric itself) and candidate pictures of a model wearing garments made from it, each under its image id.',
    'Rank every candidate, the one that shows this fabric best first: faithful pattern and colours, a believable drape and texture for the fabric facts, a clean and attractive picture without defects.',
    'Answer with one JSON object that follows the given schema: `ranking` names every candidate\'s image_id exactly once, best first, each with one short reason.',
    `Write the reasons in ${LANGUAGE_NAME[language]}.`,
  ].join('\n');
}

export function rankingRequestText(input: RankCandidatesInput): string {
  const analysis = input.analysisText?.trim();
  return [
    'Fabric information:',
    fabricLines(input.fabric),
    analysis ? `Fabric analysis:\n${analysis.slice(0, MAX_ANALYSIS_CHARS)}` : undefined,
    `Candidate image ids: ${input.candidates.map((c) => c.imageId).join(', ')}`,
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

/** The input checked and its images made small: the candidates bounded, the pattern images few. */
export async function rankingImages(
  input: RankCandidatesInput,
  provider: string,
): Promise<{ patterns: InputImage[]; candidates: { imageId: number; image: InputImage }[] }> {
  if (input.candidates.length === 0 || input.candidates.length > MAX_COLLECTION_CANDIDATES) {
    throw new ProviderError('invalid_request', `a ranking takes 1 to ${MAX_COLLECTION_CANDIDATES} candidates, not ${input.candidates.length}`, { provider });
  }
  const patterns = await Promise.all(input.patternImages.slice(0, MAX_PATTERN_IMAGES).map((image) => smallJpeg(image, provider)));
  const candidates = await Promise.all(input.candidates.map(async (c) => ({ imageId: c.imageId, image: await smallJpeg(c.image, provider) })));
  return { patterns, candidates };
}

async function smallJpeg(image: InputImage, provider: string): Promise<InputImage> {
  try {
    const { data, info } = await sharp(image.data)
      .rotate()
      .resize({ width: RANKING_IMAGE_SIDE, height: RANKING_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { data, mimeType: 'image/jpeg', role: image.role, width: info.width, height: info.height };
  } catch (error) {
    throw new ProviderError('invalid_request', `an image to rank (${image.role}) cannot be read`, { provider, cause: error });
  }
}
