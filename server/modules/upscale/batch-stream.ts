// POST /upscale/batch's reply: a text/event-stream of `data: {json}` lines. Every item is
// announced as queued, then runs in turn (a batch holds one queue place at a time, so it cannot
// crowd out other users) with progress, then a result or an error; a final complete event ends
// the stream. A client that disconnects cancels what is left.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { abortOnDisconnect } from './client-abort.js';
import { errorBody, toUpscaleHttpError, UpscaleHttpError, type ErrorContext } from './upscale-http-error.js';
import { upscaleMessage } from './upscale-messages.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UpscaleService } from './upscale-service.js';
import type { UploadedFile } from './upscale-upload.js';
import { startEventStreamReply } from '../../http/event-stream-reply.js';

export type BatchEvent =
  | { type: 'queued'; index: number; filename: string; total: number }
  | { type: 'progress'; index: number; fraction: number }
  | {
      type: 'result';
      index: number;
      url: string;
      filename: string;
      width: number;
      height: number;
      message: string;
    }
  | { type: 'error'; index: number; status: number; code: string; message: string }
  | { type: 'complete'; total: number; succeeded: number; failed: number; message: string };

const HEARTBEAT_MS = 15_000;

export interface BatchInput {
  service: UpscaleService;
  files: UploadedFile[];
  params: UpscaleParams;
  ctx: ErrorContext;
  /** prepended to each result's link */
  linkBase: string;
  /** told how many upload bytes an item let go of once it is done */
  onItemDone?: (bytes: number) => void;
}

export async function streamBatch(
  request: FastifyRequest,
  reply: FastifyReply,
  input: BatchInput,
): Promise<void> {
  const { service, files, params, ctx, linkBase } = input;
  const lang = request.headers['accept-language'];
  const controller = abortOnDisconnect(reply);
  const { signal } = controller;
  const raw = startEventStreamReply(reply);
  const write = (chunk: string): void => {
    if (!raw.destroyed && !raw.writableEnded) raw.write(chunk);
  };
  const send = (event: BatchEvent): void => write(`data: ${JSON.stringify(event)}\n\n`);
  // Comment lines keep proxies from closing a stream that waits for its turn.
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);

  let succeeded = 0;
  let failed = 0;
  try {
    files.forEach((f, index) => send({ type: 'queued', index, filename: f.filename, total: files.length }));
    for (const [index, file] of files.entries()) {
      if (signal.aborted) break;
      try {
        if (file.tooLarge) {
          throw new UpscaleHttpError(413, 'file_too_large', {
            mb: Math.round(ctx.uploadLimitBytes / (1024 * 1024)),
          });
        }
        let last = -1;
        const r = await service.upscale(file, params, {
          signal,
          onStart: () => send({ type: 'progress', index, fraction: 0 }),
          onProgress: (fraction) => {
            // At most one event per percent.
            const rounded = Math.floor(fraction * 100) / 100;
            if (rounded > last) {
              last = rounded;
              send({ type: 'progress', index, fraction: rounded });
            }
          },
        });
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
      } catch (error) {
        if (signal.aborted) break;
        failed++;
        const mapped = toUpscaleHttpError(error, ctx);
        if (mapped.status >= 500 && mapped.code !== 'queue_full')
          request.log.error({ err: error }, 'batch item failed');
        const body = errorBody(mapped, lang);
        send({ type: 'error', index, status: mapped.status, code: body.code, message: body.message });
      } finally {
        // A done item's image is not kept for the rest of the batch.
        files[index] = { ...file, data: Buffer.alloc(0) };
        input.onItemDone?.(file.data.length);
      }
    }
    if (!signal.aborted) {
      send({
        type: 'complete',
        total: files.length,
        succeeded,
        failed,
        message: upscaleMessage('batch_done', lang, { succeeded, failed }),
      });
    } else {
      request.log.info(
        { done: succeeded + failed, total: files.length },
        'batch cancelled by client disconnect',
      );
    }
  } finally {
    clearInterval(heartbeat);
    if (!raw.writableEnded) raw.end();
  }
}
