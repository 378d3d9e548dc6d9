// Error and not-found handlers that keep every main-API answer in the envelope, with no stack traces.
import type { FastifyError, FastifyInstance } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/database-unavailable.js';
import { isStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from '../storage/storage-unavailable.js';
import { AppError } from './app-error.js';
import { sendError } from './envelope.js';
import type { MessageKey } from './messages.js';

// Fastify's own error codes → our status and message.
const frameworkErrors: Record<string, [number, MessageKey]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_REQ_FILE_TOO_LARGE: [413, 'payload_too_large'],
  FST_PARTS_LIMIT: [413, 'payload_too_large'],
  FST_FILES_LIMIT: [413, 'payload_too_large'],
  FST_FIELDS_LIMIT: [413, 'payload_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'unsupported_media_type'],
};

export function installEnvelopeErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      const { vars, errors, retryAfterSeconds, data } = error.options;
      if (retryAfterSeconds) void reply.header('retry-after', String(retryAfterSeconds));
      const payload = errors ? { errors } : (data ?? null);
      return sendError(request, reply, error.status, error.key, { seconds: retryAfterSeconds ?? 0, ...vars }, payload);
    }
    const known = error.code ? frameworkErrors[error.code] : undefined;
    if (known) return sendError(request, reply, known[0], known[1]);
    if (error instanceof SyntaxError && error.statusCode === 400) return sendError(request, reply, 400, 'invalid_json');
    if (error.statusCode === 429) {
      const retry = Number(reply.getHeader('retry-after') ?? 60);
      return sendError(request, reply, 429, 'too_many_requests', { seconds: retry });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(request, reply, error.statusCode, error.statusCode === 413 ? 'payload_too_large' : 'invalid_request');
    }
    // The shared file storage (S3) not answering: named as such, and resent like the database's.
    if (isStorageUnavailable(error)) {
      request.log.warn({ err: error }, 'file storage unavailable');
      void reply.header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS));
      return sendError(request, reply, 503, 'storage_unavailable', { seconds: STORAGE_RETRY_AFTER_SECONDS });
    }
    // PostgreSQL restarting or failing over: 503 with Retry-After, which clients resend.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(request, reply, 503, 'database_unavailable', { seconds: DATABASE_RETRY_AFTER_SECONDS });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 500, 'internal_error');
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, 404, 'not_found'));
}
