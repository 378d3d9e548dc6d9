// Candidate ranking on Gemini: one generateContent with the fabric facts, the pattern and every
// candidate as small inline JPEGs (each after a text part naming its image id), JSON by
// responseSchema; the answer is checked to name every candidate exactly once.
import type { Part } from '@google/genai';
import type { CandidateRanker, CandidateRanking } from '../capabilities.js';
import { rankingAnswerSchema, readRanking } from '../shared/ranking-answer.js';
import { rankingImages, rankingInstructions, rankingRequestText } from '../shared/ranking-request.js';
import type { GeminiContext } from './gemini-context.js';
import { generateJson } from './gemini-json.js';
import { inlineImageParts } from './gemini-response.js';

export function createGeminiRanker(context: GeminiContext): CandidateRanker {
  return {
    async rankCandidates(input, signal) {
      const { patterns, candidates } = await rankingImages(input, 'gemini');
      const inline = await inlineImageParts([...patterns, ...candidates.map((c) => c.image)]);
      const candidateParts = candidates.flatMap((c, i): Part[] => [{ text: `Candidate image_id ${c.imageId}:` }, inline[patterns.length + i]!]);
      const parts: Part[] = [
        { text: rankingRequestText(input) },
        ...(patterns.length > 0 ? [{ text: 'Pattern images:' }, ...inline.slice(0, patterns.length)] : []),
        ...candidateParts,
      ];
      const imageIds = candidates.map((c) => c.imageId);
      const { value, model } = await generateJson<CandidateRanking['ranking']>(context, {
        systemInstruction: rankingInstructions(input.language),
        parts,
        schema: rankingAnswerSchema(imageIds.length),
        read: (json) => readRanking(json, imageIds, 'gemini'),
        temperature: 0.2,
        signal,
        what: 'candidate ranking',
      });
      return { ranking: value, model };
    },
  };
}
