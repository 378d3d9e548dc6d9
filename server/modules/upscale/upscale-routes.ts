// The upscale service's routes (spec §7), relative to the group's prefix. Replies are the
// service's own shape: {status: "success", ...} or {status: "error", code, message}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/current-user.js';
import { parseRange } from '../../storage/file-routes.js';
import type { SignedLinks } from '../../storage/signed-links.js';
import { discardRestOfBody } from '../../http/multipart-form.js';
import type { UploadHold } from '../../http/upload-budget.js';
import { streamBatchEvents } from './batch-event-stream.js';
import { batchEventSchema } from './batch-events.js';
import { abortOnDisconnect } from './client-abort.js';
import { modelViewSchema } from './model-catalogue.js';
import { resultContentType } from './result-store.js';
import { fileTooLarge, UpscaleHttpError, type ErrorContext } from './upscale-http-error.js';
import { upscaleMessage } from './upscale-messages.js';
import { parseUpscaleParams, type UpscaleParams } from './upscale-params.js';
import type { UpscaleService } from './upscale-service.js';
import { readUpload, type Upload } from './upscale-upload.js';
import type { UpscaleWork } from './upscale-work.js';

export interface UpscaleRouteOptions {
  /** Runs the images, here or on the team's workers: the routes do not ask which (upscale-work.ts). */
  work: UpscaleWork;
  /** Its upload budget (bytes held in memory) and result store (served by link) are every mode's. */
  service: UpscaleService;
  resultLinks: SignedLinks;
  now: () => Date;
  uploadLimitBytes: number;
  maxPixels: number;
  maxBatchFiles: number;
  /** Prepended to result links: '' on the same origin, the host's own origin when standalone. */
  linkBase: (request: FastifyRequest) => string;
}

/** Sent with the model list: POST /upscale/single honours Idempotency-Key (resends are replayed). */
export const IDEMPOTENCY_SUPPORT_HEADER = 'upscale-idempotency';

const success = z.literal('success');

/** The success answers the PWA reads, for the OpenAPI document (outside the main API's envelope). */
export const upscaleModelsSchema = z
  .object({ status: success, models: z.array(modelViewSchema), message: z.string() })
  .meta({ id: 'UpscaleModels' });
export const upscaleDoneSchema = z
  .object({
    status: success,
    url: z.string().meta({ description: 'The signed link of the result image.' }),
    filename: z.string(),
    message: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    scale: z.number().int(),
  })
  .meta({ id: 'UpscaleDone' });
export const upscaleJobCancelledSchema = z
  .object({
    status: success,
    stopped: z
      .boolean()
      .meta({ description: 'false: it had already finished; its kept result is forgotten.' }),
    message: z.string(),
  })
  .meta({ id: 'UpscaleJobCancelled' });

const doc = (summary: string, schema: z.ZodType) => ({
  config: { openapi: { summary, tags: ['upscale'], response: { schema } } },
});

/** A form's text fields and multipart framing, beyond its files (the parser caps fields at 20 × 4 KiB). */
const FORM_OVERHEAD_BYTES = 128 * 1024;

export function registerUpscaleRoutes(app: FastifyInstance, o: UpscaleRouteOptions): void {
  const ctx: ErrorContext = { maxPixels: o.maxPixels, uploadLimitBytes: o.uploadLimitBytes };

  /**
   * Before a byte of the body is read: a request that could not even wait in the queue, or whose
   * declared length would pass the upload budget, is refused at once (503 with Retry-After) instead
   * of after its upload. A resend that joins a keyed job needs no place of its own.
   */
  const admitUpload = async (
    request: FastifyRequest,
    maxFiles: number,
    joinsJob = false,
  ): Promise<UploadHold> => {
    if (!request.isMultipart()) throw new UpscaleHttpError(415, 'not_multipart');
    if (!joinsJob) await o.work.assertCapacity();
    const declared = Number(request.headers['content-length']) || 0;
    // Never more than such a form can keep: a false length must not take the whole budget.
    return o.service.uploads.reserve(Math.min(declared, maxFiles * o.uploadLimitBytes + FORM_OVERHEAD_BYTES));
  };

  /** Reads the form, counting its bytes, and checks everything that does not need the image decoded. */
  const readRequest = async (
    request: FastifyRequest,
    maxFiles: number,
    hold: UploadHold,
  ): Promise<Upload & { params: UpscaleParams }> => {
    const upload = await readUpload(request, { fileSize: o.uploadLimitBytes, files: maxFiles }, (bytes) =>
      hold.count(bytes),
    );
    hold.settle(upload.files.reduce((sum, f) => sum + f.data.length, 0));
    if (maxFiles === 1 && upload.files[0]?.tooLarge) throw fileTooLarge(ctx);
    if (upload.files.length === 0) throw new UpscaleHttpError(400, 'missing_image', {}, { field: 'image' });
    const params = parseUpscaleParams(upload.fields);
    await o.work.assertModel(params.modelName);
    return { ...upload, params };
  };

  app.get(
    '/models',
    doc('The Real-CUGAN models on offer', upscaleModelsSchema),
    async (request, reply): Promise<z.output<typeof upscaleModelsSchema>> => {
      // Tells the PWA, before it resends a request cut short, that a resend with the same key is safe.
      void reply.header(IDEMPOTENCY_SUPPORT_HEADER, 'upscale-single');
      return {
        status: 'success',
        models: await o.work.listModels(),
        message: upscaleMessage('models_listed', request.headers['accept-language']),
      };
    },
  );

  app.post(
    '/upscale/single',
    doc('Upscale one image (multipart; replayed by Idempotency-Key)', upscaleDoneSchema),
    async (request, reply): Promise<z.output<typeof upscaleDoneSchema>> => {
      const { signal } = abortOnDisconnect(reply);
      const header = request.headers['idempotency-key'];
      const key = typeof header === 'string' ? header : undefined;
      const userId = currentUser(request).id;
      // Held until the answer: the image stays in memory while it waits and runs.
      const hold = await admitUpload(request, 1, await o.work.joinsJob(key, userId));
      let answer: Awaited<ReturnType<UpscaleWork['single']>>;
      try {
        const { files, params } = await readRequest(request, 1, hold);
        answer = await o.work.single({ file: files[0]!, params, userId, key, signal });
      } finally {
        hold.close();
        discardRestOfBody(request);
      }
      const { outcome: r, replayed, keyed } = answer;
      // Echoing the key confirms it was honoured; a replay says it ran no engine of its own.
      if (keyed) void reply.header('idempotency-key', key);
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return {
        status: 'success',
        url: o.linkBase(request) + r.url,
        filename: r.filename,
        message: upscaleMessage('upscale_done', request.headers['accept-language']),
        width: r.width,
        height: r.height,
        scale: r.scale,
      };
    },
  );

  // The designer's Cancel of a keyed single upscale: without it the job would outlive its aborted
  // request for the resend grace, holding an engine slot others wait for.
  app.delete<{ Params: { key: string } }>(
    '/upscale/jobs/:key',
    doc('Cancel a keyed single upscale', upscaleJobCancelledSchema),
    async (request): Promise<z.output<typeof upscaleJobCancelledSchema>> => {
      const found = await o.work.cancelKey(request.params.key, currentUser(request).id);
      if (found === 'unknown') throw new UpscaleHttpError(404, 'not_found');
      if (found === 'not_owner') throw new UpscaleHttpError(403, 'forbidden');
      return {
        status: 'success',
        // false: it had already finished; its kept result is forgotten, so a resend runs afresh.
        stopped: found === 'stopped',
        message: upscaleMessage('job_cancelled', request.headers['accept-language']),
      };
    },
  );

  app.post(
    '/upscale/batch',
    {
      config: {
        openapi: {
          summary: 'Upscale several images (multipart), answered as an event stream',
          tags: ['upscale'],
          response: {
            description: 'One UpscaleBatchEvent per `data:` line; complete ends it',
            contentType: 'text/event-stream',
            schema: batchEventSchema,
          },
        },
      },
    },
    async (request, reply) => {
      const hold = await admitUpload(request, o.maxBatchFiles);
      try {
        const { files, params } = await readRequest(request, o.maxBatchFiles, hold);
        // Checked again after the upload, before the stream starts, while a real status can still be sent.
        await o.work.assertCapacity();
        const userId = currentUser(request).id;
        await streamBatchEvents(request, reply, { files, ctx, linkBase: o.linkBase(request) }, (events) =>
          o.work.runBatch({ userId, files, params, ctx, events, onItemDone: (bytes) => hold.release(bytes) }),
        );
      } finally {
        hold.close();
        discardRestOfBody(request);
      }
    },
  );

  app.get<{
    Params: { id: string; filename: string };
    Querystring: { expires?: string; sig?: string; download?: string };
  }>('/results/:id/:filename', async (request, reply) => {
    const { id, filename } = request.params;
    const { expires, sig } = request.query;
    const nowMs = o.now().getTime();
    // The signature is the access check: links work in <img src> without a bearer header.
    if (!o.resultLinks.verify(id, filename, expires, sig, nowMs))
      throw new UpscaleHttpError(403, 'link_invalid');
    // Wherever the result was written (this process, another replica, the shared bucket).
    const size = await o.service.store.size(id, filename);
    if (size === undefined) throw new UpscaleHttpError(404, 'not_found');
    const range = parseRange(request.headers.range, size);
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
    const stream = await o.service.store.open(id, filename, range);
    if (!stream) throw new UpscaleHttpError(404, 'not_found');
    const maxAge = Math.max(0, Number(expires) - Math.floor(nowMs / 1000));
    const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
    const disposition = request.query.download ? 'attachment' : 'inline';
    void reply
      .header('content-type', resultContentType(filename))
      .header('cache-control', `private, max-age=${maxAge}, immutable`)
      .header('accept-ranges', 'bytes')
      .header(
        'content-disposition',
        `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      )
      // Another origin (the PWA, when this service runs on its own host) may show the image.
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff');
    if (range) {
      void reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', String(range.end - range.start + 1));
    } else {
      void reply.header('content-length', String(size));
    }
    return reply.send(stream);
  });
}
