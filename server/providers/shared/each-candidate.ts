// Candidate images are made one request each (an image model answers one picture per call), a
// few at a time, each handed over as soon as it is ready. Each candidate succeeds or fails on its
// own: a refusal of one picture (a safety block, an answer without an image) leaves the others
// going, and a rate limit or outage that outlasted the adapter's own retries only stops new
// candidates from starting (the running ones finish). A failure that would fail every candidate
// alike (a bad key, an exhausted quota, parameters the provider refuses, a cancel) stops them all
// and is thrown.
import { ProviderError, type CandidateFailure } from '../capabilities.js';

/** Kinds that concern one picture only. */
const ONE_CANDIDATE = new Set(['safety', 'bad_response']);
/** Kinds that may pass if asked again later: the candidate is left for the job's next run. */
const LATER = new Set(['rate_limited', 'unavailable', 'timeout']);

export interface Candidates<T> {
  /** Index i holds candidate i, or nothing when it failed (see failures). */
  images: T[];
  failures: CandidateFailure[];
}

export async function eachCandidate<T>(
  count: number,
  concurrency: number,
  signal: AbortSignal,
  make: (index: number, signal: AbortSignal) => Promise<T>,
  onReady: (value: T, index: number) => void,
): Promise<Candidates<T>> {
  const stop = new AbortController();
  const linked = AbortSignal.any([signal, stop.signal]);
  const images: T[] = new Array<T>(count);
  const failures: CandidateFailure[] = [];
  let next = 0;
  let fatal: { error: unknown } | undefined;
  let stopStarting = false;
  const worker = async () => {
    while (!fatal && !stopStarting && next < count) {
      const index = next++;
      try {
        const value = await make(index, linked);
        if (fatal) return;
        images[index] = value;
        onReady(value, index);
      } catch (error) {
        if (fatal) return;
        if (error instanceof ProviderError && (ONE_CANDIDATE.has(error.kind) || LATER.has(error.kind)) && !signal.aborted) {
          failures.push({ index, error });
          if (LATER.has(error.kind)) stopStarting = true;
          continue;
        }
        fatal = { error };
        stop.abort();
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  if (fatal) throw fatal.error;
  // Candidates never started because a rate limit stopped the starting: left for later too.
  const later = failures.find((f) => LATER.has(f.error.kind));
  for (let index = next; index < count; index++) if (later) failures.push({ index, error: later.error });
  failures.sort((a, b) => a.index - b.index);
  return { images, failures };
}
