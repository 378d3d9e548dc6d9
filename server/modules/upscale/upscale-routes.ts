// The upscale service's routes (spec §7), relative to the group's prefix. Replies are the
// service's own shape: {status: "success", ...} or {status: "error", code, message}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser } from '../../http/current-user.js';
import { streamBatch } from './batch-stream.js';
import { abortOnDisconnect } from './client-abort.js';
import { IdempotentResults } from './idempotent-results.js';
import type { SignedUrls } from './signed-urls.js';
import { UpscaleHttpError, type ErrorContext } from './upscale-http-error.js';
import { upscaleMessage } from './upscale-messages.js';
import { parseUpscaleParams, type UpscaleParams } from './upscale-params.js';
import type { UpscaleService } from './upscale-service.js';
import { readUpload, type Upload } from './upscale-upload.js';

export interface UpscaleRouteOptions {
  service: UpscaleService;
  signedUrls: SignedUrls;
  now: () => Date;
  uploadLimitBytes: number;
  maxPixels: number;
  maxBatchFiles: number;
  resultTtlSeconds: number;
  /** Prepended to result links: '' on the same origin, the host's own origin when standalone. */
  linkBase: (request: FastifyRequest) => string;
}

/** Sent with the model list: POST /upscale/single honours Idempotency-Key (resends are replayed). */
export const IDEMPOTENCY_SUPPORT_HEADER = 'upscale-idempotency';

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

export function registerUpscaleRoutes(app: FastifyInstance, o: UpscaleRouteOptions): void {
  const ctx: ErrorContext = { maxPixels: o.maxPixels, uploadLimitBytes: o.uploadLimitBytes };
  const tooLarge = () =>
    new UpscaleHttpError(413, 'file_too_large', { mb: Math.round(o.uploadLimitBytes / (1024 * 1024)) });

  /** Reads the form and checks everything that does not need the image decoded. */
  const readRequest = async (
    request: FastifyRequest,
    maxFiles: number,
  ): Promise<Upload & { params: UpscaleParams }> => {
    const upload = await readUpload(request, { fileSize: o.uploadLimitBytes, files: maxFiles });
    if (maxFiles === 1 && upload.files[0]?.tooLarge) throw tooLarge();
    if (upload.files.length === 0) throw new UpscaleHttpError(400, 'missing_image', {}, { field: 'image' });
    const params = parseUpscaleParams(upload.fields);
    await o.service.assertModel(params.modelName);
    return { ...upload, params };
  };

  app.get('/models', async (request, reply) => {
    // Tells the PWA, before it resends a request cut short, that a resend with the same key is safe.
    void reply.header(IDEMPOTENCY_SUPPORT_HEADER, 'upscale-single');
    return {
      status: 'success',
      models: await o.service.listModels(),
      message: upscaleMessage('models_listed', request.headers['accept-language']),
    };
  });

  const idempotent = new IdempotentResults(o.resultTtlSeconds, o.now);

  app.post('/upscale/single', async (request, reply) => {
    const { signal } = abortOnDisconnect(reply);
    const { files, params } = await readRequest(request, 1);
    const file = files[0]!;
    const header = request.headers['idempotency-key'];
    const key = typeof header === 'string' ? header : undefined;
    const {
      outcome: r,
      replayed,
      keyed,
    } = await idempotent.run(
      key,
      currentUser(request).id,
      IdempotentResults.fingerprint(currentUser(request).id, params, file.data),
      signal,
      (workSignal) => o.service.upscale(file, params, { signal: workSignal }),
    );
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
  });

  // The designer's Cancel of a keyed single upscale: without it the job would outlive its aborted
  // request for the resend grace, holding an engine slot others wait for.
  app.delete<{ Params: { key: string } }>('/upscale/jobs/:key', async (request) => {
    const found = idempotent.cancel(request.params.key, currentUser(request).id);
    if (found === 'unknown') throw new UpscaleHttpError(404, 'not_found');
    if (found === 'not_owner') throw new UpscaleHttpError(403, 'forbidden');
    return {
      status: 'success',
      // false: it had already finished; its kept result is forgotten, so a resend runs afresh.
      stopped: found === 'stopped',
      message: upscaleMessage('job_cancelled', request.headers['accept-language']),
    };
  });

  app.post('/upscale/batch', async (request, reply) => {
    const { files, params } = await readRequest(request, o.maxBatchFiles);
    // Refused before the stream starts, with a real status, when nothing could even wait.
    o.service.queue.assertCapacity();
    await streamBatch(request, reply, {
      service: o.service,
      files,
      params,
      ctx,
      linkBase: o.linkBase(request),
    });
  });

  app.get<{
    Params: { id: string; filename: string };
    Querystring: { expires?: string; sig?: string; download?: string };
  }>('/results/:id/:filename', async (request, reply) => {
    const { id, filename } = request.params;
    const { expires, sig } = request.query;
    const nowMs = o.now().getTime();
    // The signature is the access check: links work in <img src> without a bearer header.
    if (!o.signedUrls.verify(id, filename, expires, sig, nowMs))
      throw new UpscaleHttpError(403, 'link_invalid');
    const file = await o.service.store.open(id, filename);
    if (!file) throw new UpscaleHttpError(404, 'not_found');
    const ext = filename.slice(filename.lastIndexOf('.') + 1);
    const maxAge = Math.max(0, Number(expires) - Math.floor(nowMs / 1000));
    const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
    const disposition = request.query.download ? 'attachment' : 'inline';
    return (
      reply
        .header('content-type', CONTENT_TYPES[ext] ?? 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header(
          'content-disposition',
          `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        )
        // Another origin (the PWA, when this service runs on its own host) may show the image.
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream)
    );
  });
}
