// Cancellation helpers: every step of the built-in engine checks its AbortSignal and fails with
// the contract's 'cancelled' ProviderError, like the network adapters do.
import { ProviderError } from '../capabilities.js';
import { LOCAL_PROVIDER } from './model-name.js';

export function cancelledError(): ProviderError {
  return new ProviderError('cancelled', 'cancelled', { provider: LOCAL_PROVIDER });
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}

/** Waits ms (0 = a macrotask turn, so other work can run), failing early when cancelled. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  throwIfCancelled(signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
