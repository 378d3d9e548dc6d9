// Every failure of the upscale group as one value: HTTP status, a stable string code (also the
// message key) and the variables its localised message needs. Engine, guard and framework errors
// are mapped onto it so a reply never leaves in another shape.
import type { FastifyError } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../db/database-unavailable.js';
import { AppError } from '../../http/app-error.js';
import { isStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from '../../storage/storage-unavailable.js';
import { UpscaleError } from '../../upscale/errors.js';
import { upscaleMessage, type UpscaleMessageKey } from './upscale-messages.js';

export type UpscaleFailureCode = Exclude<
  UpscaleMessageKey,
  'models_listed' | 'upscale_done' | 'batch_done' | 'job_cancelled'
>;

export class UpscaleHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: UpscaleFailureCode,
    readonly vars: Record<string, string | number> = {},
    readonly extra: { retryAfterSeconds?: number; field?: string } = {},
  ) {
    super(code);
    this.name = 'UpscaleHttpError';
  }
}

/** The limits some messages quote. */
export interface ErrorContext {
  maxPixels: number;
  uploadLimitBytes: number;
}

/** An upload over the per-file limit, with the limit in MB for its message. */
export function fileTooLarge(ctx: ErrorContext): UpscaleHttpError {
  return new UpscaleHttpError(413, 'file_too_large', { mb: uploadLimitMb(ctx) });
}

function uploadLimitMb(ctx: ErrorContext): number {
  return Math.round(ctx.uploadLimitBytes / (1024 * 1024));
}

// 499 is nginx's "client closed request": nobody reads it, but logs stay honest.
const ENGINE_STATUS: Record<UpscaleError['code'], number> = {
  unsupported_type: 415,
  corrupt_image: 422,
  too_many_pixels: 413,
  unknown_model: 400,
  invalid_parameter: 400,
  cancelled: 499,
  engine_error: 500,
};

const FRAMEWORK_ERRORS: Record<string, [number, UpscaleFailureCode]> = {
  FST_REQ_FILE_TOO_LARGE: [413, 'file_too_large'],
  FST_FILES_LIMIT: [413, 'too_many_files'],
  FST_PARTS_LIMIT: [413, 'bad_request'],
  FST_FIELDS_LIMIT: [413, 'bad_request'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'bad_request'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'not_multipart'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'not_multipart'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'bad_request'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'bad_request'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request'],
};

export function toUpscaleHttpError(error: unknown, ctx: ErrorContext): UpscaleHttpError {
  if (error instanceof UpscaleHttpError) return error;
  if (error instanceof UpscaleError) {
    const status = ENGINE_STATUS[error.code];
    switch (error.code) {
      case 'too_many_pixels':
        return new UpscaleHttpError(status, 'too_many_pixels', { max: ctx.maxPixels });
      case 'unknown_model':
        return new UpscaleHttpError(status, 'unknown_model', {
          model: /unknown model (.*)$/.exec(error.message)?.[1] ?? '',
        });
      case 'invalid_parameter':
        return new UpscaleHttpError(status, 'invalid_parameter', { field: '', allowed: error.message });
      case 'engine_error':
        return new UpscaleHttpError(status, 'internal_error');
      default:
        return new UpscaleHttpError(status, error.code);
    }
  }
  // The shared result storage (S3) not answering, or PostgreSQL restarting or failing over: a
  // short wait and a resend will do (the PWA resends a 503 with Retry-After), not a 500 that ends
  // the image as failed.
  if (isStorageUnavailable(error))
    return new UpscaleHttpError(503, 'storage_unavailable', {}, { retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS });
  if (isDatabaseUnavailable(error))
    return new UpscaleHttpError(503, 'database_unavailable', {}, { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  if (error instanceof AppError) {
    // A form's reference to a resumable upload (http/multipart-form.ts) that cannot stand for a file.
    if (error.key === 'upload_not_found' || error.key === 'upload_incomplete') {
      return new UpscaleHttpError(error.status, error.key, error.options.vars ?? {});
    }
    if (error.status === 401) return new UpscaleHttpError(401, 'unauthorized');
    if (error.status === 403) return new UpscaleHttpError(403, 'forbidden');
    if (error.status === 404) return new UpscaleHttpError(404, 'not_found');
    if (error.status < 500) return new UpscaleHttpError(error.status, 'bad_request');
    return new UpscaleHttpError(500, 'internal_error');
  }
  const fe = error as Partial<FastifyError> | null;
  const known = fe?.code ? FRAMEWORK_ERRORS[fe.code] : undefined;
  if (known) {
    const vars: Record<string, number> =
      known[1] === 'file_too_large' ? { mb: uploadLimitMb(ctx) } : {};
    return new UpscaleHttpError(known[0], known[1], vars);
  }
  const status = fe?.statusCode;
  if (status && status >= 400 && status < 500)
    return new UpscaleHttpError(status, status === 404 ? 'not_found' : 'bad_request');
  return new UpscaleHttpError(500, 'internal_error');
}

export interface UpscaleErrorBody {
  status: 'error';
  code: UpscaleFailureCode;
  message: string;
  field?: string;
  retry_after?: number;
}

export function errorBody(error: UpscaleHttpError, acceptLanguage: string | undefined): UpscaleErrorBody {
  const { retryAfterSeconds, field } = error.extra;
  const seconds = retryAfterSeconds ?? 0;
  return {
    status: 'error',
    code: error.code,
    message: upscaleMessage(error.code, acceptLanguage, { seconds, ...error.vars }),
    ...(field ? { field } : {}),
    ...(retryAfterSeconds ? { retry_after: retryAfterSeconds } : {}),
  };
}
