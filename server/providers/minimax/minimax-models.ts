// What each MiniMax video model can make, from MiniMax's documentation: Hailuo-02 does image-to-
// video at 512P/768P (6 or 10 s) and 1080P (6 s), and first-last-frame at 768P (6 or 10 s) and
// 1080P (6 s); the 2.3 models do image-to-video at 768P (6 or 10 s) and 1080P (6 s) only.
// Requests outside these are refused here with invalid_request instead of spending a call.
import { ProviderError, type VideoKind, type VideoRequest, type VideoResolution } from '../capabilities.js';

export type DurationTable = Partial<Record<VideoKind, Partial<Record<VideoResolution, readonly number[]>>>>;

const HAILUO_02: DurationTable = {
  standard: { '512P': [6, 10], '768P': [6, 10], '1080P': [6] },
  'first-last-frame': { '768P': [6, 10], '1080P': [6] },
};
const HAILUO_23: DurationTable = { standard: { '768P': [6, 10], '1080P': [6] } };

const KNOWN_MODELS: Record<string, DurationTable> = {
  'MiniMax-Hailuo-02': HAILUO_02,
  'MiniMax-Hailuo-2.3': HAILUO_23,
  'MiniMax-Hailuo-2.3-Fast': HAILUO_23,
};

/** The one model with first-last-frame; used for that kind whatever MINIMAX_VIDEO_MODEL says. */
export const FIRST_LAST_FRAME_MODEL = 'MiniMax-Hailuo-02';

/** The model a request goes to. */
export function modelFor(kind: VideoKind, configured: string): string {
  if (kind === 'first-last-frame' && !KNOWN_MODELS[configured]?.['first-last-frame']) return FIRST_LAST_FRAME_MODEL;
  return configured;
}

/** What the configured model (and the first-last-frame model) allow; undefined for a model this table does not know. */
export function durationsFor(configured: string): DurationTable | undefined {
  const table = KNOWN_MODELS[configured];
  if (!table) return undefined;
  return { ...table, 'first-last-frame': table['first-last-frame'] ?? HAILUO_02['first-last-frame'] };
}

/** Throws invalid_request for a duration/resolution the model cannot make. Unknown models are left to MiniMax (2013). */
export function checkCombination(request: Pick<VideoRequest, 'kind' | 'resolution' | 'durationSeconds'>, model: string): void {
  const allowed = KNOWN_MODELS[model]?.[request.kind];
  if (!KNOWN_MODELS[model]) return;
  const durations = allowed?.[request.resolution];
  if (!durations?.includes(request.durationSeconds)) {
    const offered = Object.entries(allowed ?? {})
      .map(([resolution, seconds]) => `${resolution}: ${seconds.join(' or ')} s`)
      .join('; ');
    throw new ProviderError(
      'invalid_request',
      `${model} cannot make a ${request.kind} video of ${request.durationSeconds} s at ${request.resolution} (it offers ${offered || 'no such videos'})`,
      { provider: 'minimax' },
    );
  }
}
