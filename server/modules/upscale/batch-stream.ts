// POST /upscale/batch on a server that runs its own upscales: the items run in turn (a batch holds
// one queue place at a time, so it cannot crowd out other users). The events are batch-event-stream.ts's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { streamBatchEvents } from './batch-event-stream.js';
import { fileTooLarge, type ErrorContext } from './upscale-http-error.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UpscaleService } from './upscale-service.js';
import type { UploadedFile } from './upscale-upload.js';

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
  const { service, files, params, ctx } = input;
  await streamBatchEvents(request, reply, input, async (events) => {
    const { signal } = events;
    for (const [index, file] of files.entries()) {
      if (signal.aborted) break;
      try {
        if (file.tooLarge) throw fileTooLarge(ctx);
        let last = -1;
        const r = await service.upscale(file, params, {
          signal,
          onStart: () => events.progress(index, 0),
          onProgress: (fraction) => {
            // At most one event per percent.
            const rounded = Math.floor(fraction * 100) / 100;
            if (rounded > last) {
              last = rounded;
              events.progress(index, rounded);
            }
          },
        });
        events.succeeded(index, r);
      } catch (error) {
        if (signal.aborted) break;
        events.failed(index, error);
      } finally {
        // A done item's image is not kept for the rest of the batch.
        files[index] = { ...file, data: Buffer.alloc(0) };
        input.onItemDone?.(file.data.length);
      }
    }
  });
}
