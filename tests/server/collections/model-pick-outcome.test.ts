// What the pick job hears from the model's ranking: the answer as it is kept, or why the score
// stands in (no ranker, the provider's failure, the time limit); the job's own cancel and a bug
// are not taken for a provider failure.
import { describe, expect, it } from 'vitest';
import { ProviderError, type CandidateRanker, type RankCandidatesInput } from '../../../server/providers/capabilities.js';
import { rankByModel } from '../../../server/modules/collections/model-pick.js';
import type { ScoredCandidate } from '../../../server/modules/collections/pick-score.js';

const input: RankCandidatesInput = {
  fabric: { fabric_name: 'Twill' },
  patternImages: [],
  candidates: [
    { imageId: 1, image: { data: Buffer.alloc(0), mimeType: 'image/png', role: 'source' } },
    { imageId: 2, image: { data: Buffer.alloc(0), mimeType: 'image/png', role: 'source' } },
  ],
  language: 'en-US',
};
const scored: ScoredCandidate[] = [
  { image_id: 1, position: 0, detail: 0.5, colour: 0.5, score: 0.5 },
  { image_id: 2, position: 1, detail: 0.2, colour: 0.2, score: 0.2 },
];
const slot = (impl: CandidateRanker) => ({ impl, provider: 'openai', localPreview: false });
/** A ranker that answers only when its signal fires, with the error a provider adapter raises then. */
const hanging: CandidateRanker = {
  rankCandidates: (_input, signal) =>
    new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new ProviderError('cancelled', 'cancelled', { provider: 'openai' })))),
};

describe("the model's ranking for a pick", () => {
  it('keeps the answer with its provider, model, reasons and the scores', async () => {
    const ranker: CandidateRanker = { rankCandidates: () => Promise.resolve({ model: 'gpt-test', ranking: [{ imageId: 2, reason: 'truer colour' }, { imageId: 1 }] }) };
    expect(await rankByModel(slot(ranker), input, scored, new AbortController().signal)).toEqual({
      ranked: true,
      pick: {
        rule: 'model',
        provider: 'openai',
        model: 'gpt-test',
        ranking: [{ image_id: 2, reason: 'truer colour' }, { image_id: 1 }],
        scores: [
          { image_id: 1, detail: 0.5, colour: 0.5, score: 0.5 },
          { image_id: 2, detail: 0.2, colour: 0.2, score: 0.2 },
        ],
      },
    });
  });

  it('says why the score stands in: no ranker, a provider failure, the time limit', async () => {
    expect(await rankByModel(undefined, input, scored, new AbortController().signal)).toMatchObject({ ranked: false, cause: 'no_ranker' });
    const quota: CandidateRanker = { rankCandidates: () => Promise.reject(new ProviderError('quota', 'balance 0', { provider: 'openai' })) };
    expect(await rankByModel(slot(quota), input, scored, new AbortController().signal)).toEqual({
      ranked: false,
      cause: 'quota',
      reason: 'openai could not rank the candidates (quota: balance 0); the built-in score picked',
    });
    expect(await rankByModel(slot(hanging), input, scored, new AbortController().signal, 30)).toEqual({
      ranked: false,
      cause: 'timeout',
      reason: 'openai did not rank the candidates within 0.03 s; the built-in score picked',
    });
  });

  it("throws on the job's own cancel and on what is not a provider failure", async () => {
    const job = new AbortController();
    const asked = rankByModel(slot(hanging), input, scored, job.signal);
    job.abort(new Error('cancelled by the person'));
    await expect(asked).rejects.toThrow('cancelled by the person');
    const broken: CandidateRanker = { rankCandidates: () => Promise.reject(new TypeError('a bug')) };
    await expect(rankByModel(slot(broken), input, scored, new AbortController().signal)).rejects.toThrow(TypeError);
  });
});
