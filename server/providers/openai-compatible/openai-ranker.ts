// Candidate ranking on an OpenAI-compatible endpoint: one chat completion with the fabric facts,
// the pattern and every candidate as small JPEG data URLs (each after a text part naming its
// image id), JSON by json_schema; the answer is checked to name every candidate exactly once.
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { CandidateRanker, CandidateRanking } from '../capabilities.js';
import { rankingAnswerSchema, readRanking } from '../shared/ranking-answer.js';
import { rankingImages, rankingInstructions, rankingRequestText } from '../shared/ranking-request.js';
import { imageUrlParts, type OpenAiContext } from './openai-context.js';
import { chatJson } from './openai-json.js';

export function createOpenAiRanker(context: OpenAiContext): CandidateRanker {
  return {
    async rankCandidates(input, signal) {
      const { patterns, candidates } = await rankingImages(input, 'openai');
      const urls = await imageUrlParts([...patterns, ...candidates.map((c) => c.image)]);
      const candidateParts = candidates.flatMap((c, i): ChatCompletionContentPart[] => [
        { type: 'text', text: `Candidate image_id ${c.imageId}:` },
        urls[patterns.length + i]!,
      ]);
      const content: ChatCompletionContentPart[] = [
        { type: 'text', text: rankingRequestText(input) },
        ...(patterns.length > 0 ? [{ type: 'text' as const, text: 'Pattern images:' }, ...urls.slice(0, patterns.length)] : []),
        ...candidateParts,
      ];
      const imageIds = candidates.map((c) => c.imageId);
      const { value, model } = await chatJson<CandidateRanking['ranking']>(context, {
        name: 'candidate_ranking',
        system: rankingInstructions(input.language),
        content,
        schema: rankingAnswerSchema(imageIds.length),
        read: (json) => readRanking(json, imageIds, 'openai'),
        temperature: 0.2,
        signal,
        what: 'candidate ranking',
      });
      return { ranking: value, model };
    },
  };
}
