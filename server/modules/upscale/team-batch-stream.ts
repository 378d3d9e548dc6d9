// POST /upscale/batch in team mode: the events are batch-event-stream.ts's, but every admitted
// image is queued at once as its own job (one transaction for the batch), so the team's workers
// share it; pg-boss's priorities (fair-priority.ts) keep batch images behind single upscales and
// take users in turn, so one user's 30 images do not starve another's one. Results arrive as
// workers finish them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { streamBatchEvents } from './batch-event-stream.js';
import { admitImage } from './image-admission.js';
import type { TeamUpscales } from './team-upscale.js';
import { fileTooLarge, type ErrorContext } from './upscale-http-error.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UploadedFile } from './upscale-upload.js';

export interface TeamBatchInput {
  team: TeamUpscales;
  userId: number;
  maxPixels: number;
  files: UploadedFile[];
  params: UpscaleParams;
  ctx: ErrorContext;
  linkBase: string;
  /** told how many upload bytes an item let go of (once its input is stored, or it was refused) */
  onItemDone?: (bytes: number) => void;
}

export async function streamTeamBatch(request: FastifyRequest, reply: FastifyReply, input: TeamBatchInput): Promise<void> {
  const { team, files, params, ctx } = input;
  await streamBatchEvents(request, reply, input, async (events) => {
    const { signal } = events;
    // The checks of the in-process path, before anything is stored.
    const admitted: number[] = [];
    for (const [index, file] of files.entries()) {
      try {
        if (file.tooLarge) throw fileTooLarge(ctx);
        await admitImage(file.data, input.maxPixels);
        admitted.push(index);
      } catch (error) {
        events.failed(index, error);
        input.onItemDone?.(file.data.length);
      }
    }
    let ids: number[] = [];
    if (admitted.length > 0 && !signal.aborted) {
      try {
        ids = await team.submitBatch(input.userId, admitted.map((i) => files[i]!), params);
      } catch (error) {
        for (const index of admitted) events.failed(index, error);
      }
      // Stored (or refused): the images are not kept in memory for the rest of the batch.
      for (const index of admitted) {
        input.onItemDone?.(files[index]!.data.length);
        files[index] = { ...files[index]!, data: Buffer.alloc(0) };
      }
    }
    await Promise.all(
      ids.map(async (id, n) => {
        const index = admitted[n]!;
        try {
          const r = await team.waitBatchItem(id, {
            signal,
            onProgress: (fraction) => events.progress(index, fraction),
          });
          events.succeeded(index, r);
        } catch (error) {
          if (!signal.aborted) events.failed(index, error);
        }
      }),
    );
  });
}
