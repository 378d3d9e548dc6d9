// Reading how a chat completion ended: 'stop' is an answer; a refusal (structured outputs' own
// field) or finish_reason content_filter is a safety stop; 'length' and a stream that ended with
// no finish reason at all left the JSON incomplete.
import { ProviderError } from '../capabilities.js';

const PROVIDER = 'openai';

export function checkCompletion(finishReason: string | null | undefined, refusal: string, what: string): void {
  if (refusal.trim()) throw new ProviderError('safety', `the model refused the ${what}: ${refusal.trim().slice(0, 200)}`, { provider: PROVIDER });
  if (finishReason === 'stop') return;
  if (finishReason === 'content_filter') throw new ProviderError('safety', `the ${what} was stopped by the content filter`, { provider: PROVIDER });
  if (finishReason === 'length') throw new ProviderError('bad_response', `the ${what} was cut off at its length limit`, { provider: PROVIDER });
  if (!finishReason) throw new ProviderError('bad_response', `the ${what} ended before it was complete`, { provider: PROVIDER });
  throw new ProviderError('bad_response', `the ${what} stopped early (${finishReason})`, { provider: PROVIDER });
}
