// The JSON answer a text model gives when it ranks a fabric's candidates: the image ids best
// first, each with a short reason. The schema sent to the provider says the shape; the check of
// what comes back also says that every candidate is named exactly once and nothing else is, so a
// model that forgets one or makes one up is a 'bad_response', never a half-ranking.
import { z } from 'zod';
import { ProviderError, type CandidateRanking } from '../capabilities.js';
import { parseJson, parseWith } from './answer-schemas.js';

const WHAT = 'candidate ranking';

/** What the model is asked for: `count` entries, best first. */
export function rankingAnswerSchema(count: number) {
  return z.object({
    ranking: z
      .array(
        z.object({
          image_id: z.number().int().describe('The id of a candidate image, as given in the request.'),
          reason: z.string().trim().describe('Why it is placed here, in one short sentence.'),
        }),
      )
      .min(count)
      .max(count)
      .describe('Every candidate exactly once, the one that shows the fabric best first.'),
  });
}

/** Reads the model's JSON: the shape, then every known id exactly once. */
export function readRanking(json: string, imageIds: number[], provider: string): CandidateRanking['ranking'] {
  const answer = parseWith(rankingAnswerSchema(imageIds.length), parseJson(json, provider, WHAT), provider, WHAT);
  const named = answer.ranking.map((entry) => entry.image_id);
  const unknown = named.filter((id) => !imageIds.includes(id));
  const missing = imageIds.filter((id) => !named.includes(id));
  if (unknown.length > 0 || missing.length > 0) {
    const problems = [
      unknown.length > 0 ? `unknown ids ${unknown.join(', ')}` : undefined,
      missing.length > 0 ? `missing ids ${missing.join(', ')}` : undefined,
    ].filter((p): p is string => p !== undefined);
    throw new ProviderError('bad_response', `${provider} answered the ${WHAT} with ${problems.join(' and ')}`, { provider });
  }
  return answer.ranking.map(({ image_id, reason }) => ({ imageId: image_id, ...(reason ? { reason } : {}) }));
}
