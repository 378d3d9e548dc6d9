// The pick rule 'model': a cloud text model that sees images ranks a fabric's candidates against
// the fabric (the provider serving the analysis, when it has a ranker). Its answer is kept with
// the row as it came; when there is no ranker, or the provider fails or takes too long, the
// built-in score picks instead and the row says why (pick-score.ts, `fallback`).
import { ProviderError, type CandidateRanker, type ProviderErrorKind, type RankCandidatesInput } from '../../providers/capabilities.js';
import type { ProviderSlot } from '../generation/engines/generation-providers.js';
import type { ScoredCandidate } from './pick-score.js';

/** Longest wait for the model's answer; the pick job's own limit is twice this. */
export const RANKING_TIMEOUT_MS = 60_000;

/** What the item keeps of a pick by the model (pick_json). */
export interface ModelPickJson {
  rule: 'model';
  provider: string;
  model: string;
  /** Every candidate, best first, as the model ranked them. */
  ranking: { image_id: number; reason?: string }[];
  /** The built-in score's figures too, shown beside each candidate. */
  scores: { image_id: number; detail: number; colour: number; score: number }[];
}

/** Why the score stood in: no ranker is configured, or the kind of the provider's failure. */
export type ModelFallbackCause = 'no_ranker' | ProviderErrorKind;

export type ModelRankingOutcome =
  | { ranked: true; pick: ModelPickJson }
  | { ranked: false; cause: ModelFallbackCause; reason: string };

/**
 * Asks the ranker, within `timeoutMs`. The job's own abort (a cancel, a shutdown) is thrown on;
 * any provider failure and the time limit answer an outcome for the score to take over.
 */
export async function rankByModel(
  slot: ProviderSlot<CandidateRanker> | undefined,
  input: RankCandidatesInput,
  scored: ScoredCandidate[],
  signal: AbortSignal,
  timeoutMs = RANKING_TIMEOUT_MS,
): Promise<ModelRankingOutcome> {
  if (!slot || slot.localPreview) {
    return { ranked: false, cause: 'no_ranker', reason: 'no text model that ranks candidates is configured; the built-in score picked' };
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const answer = await slot.impl.rankCandidates(input, AbortSignal.any([signal, timeout]));
    return {
      ranked: true,
      pick: {
        rule: 'model',
        provider: slot.provider,
        model: answer.model,
        ranking: answer.ranking.map(({ imageId, reason }) => ({ image_id: imageId, ...(reason ? { reason } : {}) })),
        scores: scored.map(({ image_id, detail, colour, score }) => ({ image_id, detail, colour, score })),
      },
    };
  } catch (error) {
    signal.throwIfAborted();
    if (timeout.aborted) {
      return { ranked: false, cause: 'timeout', reason: `${slot.provider} did not rank the candidates within ${timeoutMs / 1000} s; the built-in score picked` };
    }
    if (!(error instanceof ProviderError)) throw error;
    return { ranked: false, cause: error.kind, reason: `${slot.provider} could not rank the candidates (${error.kind}: ${error.message}); the built-in score picked` };
  }
}
