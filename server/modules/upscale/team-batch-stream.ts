// POST /upscale/batch in team mode: the same text/event-stream as batch-stream.ts (queued for
// every item, progress, a result or an error per item, then complete), but every admitted image is
// queued at once as its own job (one transaction for the batch), so the team's workers share it;
// pg-boss's priorities (fair-priority.ts) keep batch images behind single upscales and take users
// in turn, so one user's 30 images do not starve another's one. Results arrive as workers finish
// them (each event names its index). A client that disconnects cancels what is left.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { startEventStreamReply } from '../../http/event-stream-reply.js';
import type { BatchEvent } from './batch-stream.js';
import { abortOnDisconnect } from './client-abort.js';
import { admitImage } from './image-admission.js';
import type { TeamUpscales } from './team-upscale.js';
import { errorBody, toUpscaleHttpError, UpscaleHttpError, type ErrorContext } from './upscale-http-error.js';
import { upscaleMessage } from './upscale-messages.js';
import type { UpscaleParams } from './upscale-params.js';
import type { UploadedFile } from './upscale-upload.js';

const HEARTBEAT_MS = 15_000;

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
  const { team, files, params, ctx, linkBase } = input;
  const lang = request.headers['accept-language'];
  const { signal } = abortOnDisconnect(reply);
  const raw = startEventStreamReply(reply);
  const write = (chunk: string): void => {
    if (!raw.destroyed && !raw.writableEnded) raw.write(chunk);
  };
  const send = (event: BatchEvent): void => write(`data: ${JSON.stringify(event)}\n\n`);
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  let succeeded = 0;
  let failed = 0;
  const fail = (index: number, error: unknown) => {
    failed++;
    const mapped = toUpscaleHttpError(error, ctx);
    if (mapped.status >= 500 && mapped.code !== 'queue_full') request.log.error({ err: error }, 'batch item failed');
    const body = errorBody(mapped, lang);
    send({ type: 'error', index, status: mapped.status, code: body.code, message: body.message });
  };
  try {
    files.forEach((f, index) => send({ type: 'queued', index, filename: f.filename, total: files.length }));
    // The checks of the in-process path, before anything is stored.
    const admitted: number[] = [];
    for (const [index, file] of files.entries()) {
      try {
        if (file.tooLarge) throw new UpscaleHttpError(413, 'file_too_large', { mb: Math.round(ctx.uploadLimitBytes / (1024 * 1024)) });
        await admitImage(file.data, input.maxPixels);
        admitted.push(index);
      } catch (error) {
        fail(index, error);
        input.onItemDone?.(file.data.length);
      }
    }
    let ids: number[] = [];
    if (admitted.length > 0 && !signal.aborted) {
      try {
        ids = await team.submitBatch(input.userId, admitted.map((i) => files[i]!), params);
      } catch (error) {
        for (const index of admitted) fail(index, error);
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
            onProgress: (fraction) => send({ type: 'progress', index, fraction }),
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
          if (!signal.aborted) fail(index, error);
        }
      }),
    );
    if (!signal.aborted) {
      send({
        type: 'complete',
        total: files.length,
        succeeded,
        failed,
        message: upscaleMessage('batch_done', lang, { succeeded, failed }),
      });
    } else {
      request.log.info({ done: succeeded + failed, total: files.length }, 'batch cancelled by client disconnect');
    }
  } finally {
    clearInterval(heartbeat);
    if (!raw.writableEnded) raw.end();
  }
}
