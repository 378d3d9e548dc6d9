// Candidate images are made one request each (an image model answers one picture per call), a
// few at a time, each handed over as soon as it is ready. The first failure stops the others: the
// caller gets one ProviderError, not a partial set it would have to reconcile.

export async function eachCandidate<T>(
  count: number,
  concurrency: number,
  signal: AbortSignal,
  make: (index: number, signal: AbortSignal) => Promise<T>,
  onReady: (value: T, index: number) => void,
): Promise<T[]> {
  const stop = new AbortController();
  const linked = AbortSignal.any([signal, stop.signal]);
  const results: T[] = new Array<T>(count);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < count) {
      const index = next++;
      try {
        const value = await make(index, linked);
        if (failure) return;
        results[index] = value;
        onReady(value, index);
      } catch (error) {
        if (!failure) failure = { error };
        stop.abort();
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  if (failure) throw failure.error;
  return results;
}
