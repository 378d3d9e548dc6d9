// Reads server-sent `data: {json}` lines from a byte stream (spec §7's streaming calls). Parsing
// is eventsource-parser's; this adds JSON decoding, a stop condition and cancellation.
import { createParser } from 'eventsource-parser';
import { ApiError } from './api-error';
import type { Translate } from './translate';

export type StreamOutcome = 'completed' | 'ended' | 'cancelled';

export interface ReadEventStreamOptions<E> {
  onEvent: (event: E) => void;
  /** Stop reading after this event (complete and error end the spec's streams). */
  isFinal?: (event: E) => boolean;
  signal?: AbortSignal;
  t: Translate;
}

/**
 * Resolves 'completed' after a final event, 'ended' when the server closes first, 'cancelled'
 * when the signal aborts (silently: cancelled streams are ignored, spec §4). A line that is not
 * JSON rejects with the stream-parse error.
 */
export async function readEventStream<E>(
  stream: ReadableStream<Uint8Array>,
  options: ReadEventStreamOptions<E>,
): Promise<StreamOutcome> {
  const { signal } = options;
  if (signal?.aborted) {
    await stream.cancel().catch(() => undefined);
    return 'cancelled';
  }
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let finished = false;
  let failure: ApiError | null = null;
  const parser = createParser({
    onEvent(message) {
      if (finished || failure) return;
      let event: E;
      try {
        event = JSON.parse(message.data) as E;
      } catch {
        failure = new ApiError('unknown', -1, options.t('errors.streamParse'), undefined, message.data);
        return;
      }
      options.onEvent(event);
      if (options.isFinal?.(event)) finished = true;
    },
  });
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return 'cancelled';
        throw error;
      }
      if (signal?.aborted) return 'cancelled';
      if (chunk.done) {
        parser.feed(decoder.decode());
        parser.reset({ consume: true });
        if (failure) throw failure;
        return finished ? 'completed' : 'ended';
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (failure) throw failure;
      if (finished) {
        await reader.cancel().catch(() => undefined);
        return 'completed';
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
