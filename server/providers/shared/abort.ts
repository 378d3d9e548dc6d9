// Cancellation helpers shared by the cloud adapters: a caller's abort is reported as a
// ProviderError of kind 'cancelled', never as a network failure, and waits between retries end
// as soon as the caller gives up.
import { ProviderError } from '../capabilities.js';

export function throwIfCancelled(signal: AbortSignal, provider: string): void {
  if (signal.aborted) throw new ProviderError('cancelled', 'cancelled', { provider, cause: signal.reason });
}

/** True for the errors fetch, the SDKs and AbortSignal.timeout() raise when a signal fires. */
export function isAbortError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.name === 'TimeoutError' || error.name === 'APIUserAbortError';
}

/** Resolves after `ms`, or rejects with a 'cancelled' ProviderError when the signal fires first. */
export function sleep(ms: number, signal: AbortSignal, provider: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new ProviderError('cancelled', 'cancelled', { provider, cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderError('cancelled', 'cancelled', { provider, cause: signal.reason }));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
