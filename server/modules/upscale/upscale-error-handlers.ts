// The upscale group's own error and not-found handlers (Fastify scopes them to the group's
// plugin), so its replies keep the service's `{status: "error", code, message}` shape.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, toUpscaleHttpError, UpscaleHttpError, type ErrorContext } from './upscale-http-error.js';

export function sendUpscaleError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: UpscaleHttpError,
): FastifyReply {
  if (error.extra.retryAfterSeconds) void reply.header('retry-after', String(error.extra.retryAfterSeconds));
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send(errorBody(error, request.headers['accept-language']));
}

/**
 * A full queue is the service shedding load as designed: one line at info, without a stack, so
 * a busy hour does not fill the error log. Other server-side failures are errors with their stack.
 */
export function logFailure(request: FastifyRequest, mapped: UpscaleHttpError, error: unknown): void {
  if (mapped.code === 'queue_full')
    request.log.info({ code: mapped.code, retryAfter: mapped.extra.retryAfterSeconds }, 'upscale queue full');
  else if (mapped.code === 'database_unavailable') request.log.warn({ err: error }, 'upscale request met an unavailable database');
  else if (mapped.code === 'storage_unavailable') request.log.warn({ err: error }, 'upscale request met an unavailable file storage');
  else if (mapped.status >= 500) request.log.error({ err: error }, 'upscale request failed');
}

export function installUpscaleErrorHandlers(app: FastifyInstance, ctx: ErrorContext): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = toUpscaleHttpError(error, ctx);
    logFailure(request, mapped, error);
    // An event stream has already sent its headers: it reports its own errors in-band.
    if (reply.raw.headersSent) return;
    return sendUpscaleError(request, reply, mapped);
  });
  app.setNotFoundHandler((request, reply) =>
    sendUpscaleError(request, reply, new UpscaleHttpError(404, 'not_found')),
  );
}
