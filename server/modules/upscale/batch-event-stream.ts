// POST /upscale/batch's reply, the one batch event stream of every mode (the UpscaleWork's runBatch
// runs the items: in turn on this server, or as the team's jobs): a text/event-stream of `data: {json}` lines.
// Every item is announced as queued, then gets progress and a result or an error (each event names
// its index, as items may finish out of order; batch-events.ts holds their schema); a final complete event ends the stream. A client
// that disconnects fires the signal, and what is left is cancelled.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { startEventStreamReply } from '../../http/event-stream-reply.js';
import { abortOnDisconnect } from './client-abort.js';
import { errorBody, toUpscaleHttpError, type ErrorContext } from './upscale-http-error.js';
import { upscaleMessage } from './upscale-messages.js';
import type { BatchEvent } from './batch-events.js';

const HEARTBEAT_MS = 15_000;

/** An upscaled item as its result event names it; `url` is relative to the stream's link base. */
export interface BatchItemResult {
  url: string;
  filename: string;
  width: number;
  height: number;
}

/** What the items' runner tells the client, item by item (counted for the complete event). */
export interface BatchItemEvents {
  /** Fires when the client goes away. */
  readonly signal: AbortSignal;
  progress(index: number, fraction: number): void;
  succeeded(index: number, result: BatchItemResult): void;
  failed(index: number, error: unknown): void;
}

export interface BatchStreamInput {
  /** Only the names are read, when every item is announced as queued. */
  files: readonly { filename: string }[];
  ctx: ErrorContext;
  /** prepended to each result's link */
  linkBase: string;
}

/** Opens the stream, announces the items, lets `runItems` run them, then completes and closes. */
export async function streamBatchEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  input: BatchStreamInput,
  runItems: (events: BatchItemEvents) => Promise<void>,
): Promise<void> {
  const { files, ctx, linkBase } = input;
  const total = files.length;
  const lang = request.headers['accept-language'];
  const { signal } = abortOnDisconnect(reply);
  const raw = startEventStreamReply(reply);
  const write = (chunk: string): void => {
    if (!raw.destroyed && !raw.writableEnded) raw.write(chunk);
  };
  const send = (event: BatchEvent): void => write(`data: ${JSON.stringify(event)}\n\n`);
  // Comment lines keep proxies from closing a stream that waits for its turn.
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);

  let succeeded = 0;
  let failed = 0;
  const events: BatchItemEvents = {
    signal,
    progress: (index, fraction) => send({ type: 'progress', index, fraction }),
    succeeded(index, r) {
      succeeded++;
      send({
        type: 'result',
        index,
        url: linkBase + r.url,
        filename: r.filename,
        width: r.width,
        height: r.height,
        message: upscaleMessage('upscale_done', lang),
      });
    },
    failed(index, error) {
      failed++;
      const mapped = toUpscaleHttpError(error, ctx);
      if (mapped.status >= 500 && mapped.code !== 'queue_full')
        request.log.error({ err: error }, 'batch item failed');
      const body = errorBody(mapped, lang);
      send({ type: 'error', index, status: mapped.status, code: body.code, message: body.message });
    },
  };
  try {
    files.forEach((f, index) => send({ type: 'queued', index, filename: f.filename, total }));
    await runItems(events);
    if (!signal.aborted) {
      send({
        type: 'complete',
        total,
        succeeded,
        failed,
        message: upscaleMessage('batch_done', lang, { succeeded, failed }),
      });
    } else {
      request.log.info({ done: succeeded + failed, total }, 'batch cancelled by client disconnect');
    }
  } finally {
    clearInterval(heartbeat);
    if (!raw.writableEnded) raw.end();
  }
}
