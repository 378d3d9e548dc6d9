// Spec §8: every failure becomes an ApiError with code, message, data and status. Server replies
// carry a message already in the user's language; it wins over the generic text for its status,
// except for 401 outside sign-in, which always reads "login expired".
import { AxiosError, isCancel } from 'axios';
import { ApiError, type FieldError } from './api-error';
import { sendsBearerToken } from './api-groups';
import type { Translate } from './translate';
import { parseRetryAfterSeconds } from './retry-after';

const STATUS_MESSAGES: Record<number, string> = {
  401: 'errors.unauthorized',
  403: 'errors.forbidden',
  404: 'errors.notFound',
  500: 'errors.serverError',
  502: 'errors.serviceUnavailable',
  503: 'errors.serviceUnavailable',
};

interface ErrorBody {
  code?: unknown;
  message?: unknown;
  data?: unknown;
}

export function statusMessage(status: number, t: Translate): string {
  const key = STATUS_MESSAGES[status];
  return key ? t(key) : t('errors.requestFailed');
}

function fieldErrorsOf(data: unknown): FieldError[] {
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is FieldError =>
      typeof e === 'object' && e !== null && typeof (e as FieldError).field === 'string',
  );
}

function retryAfter(headers: unknown): number | undefined {
  return parseRetryAfterSeconds((headers as Record<string, unknown> | undefined)?.['retry-after']);
}

export function normalizeHttpFailure(
  status: number,
  body: unknown,
  t: Translate,
  options: { path?: string; headers?: unknown } = {},
): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const serverMessage = typeof b.message === 'string' && b.message.trim() ? b.message : undefined;
  const expired = status === 401 && sendsBearerToken(options.path);
  const message = expired ? t('errors.unauthorized') : (serverMessage ?? statusMessage(status, t));
  const code = typeof b.code === 'number' ? b.code : status;
  const data = 'data' in b ? b.data : body;
  return new ApiError(
    'http',
    code,
    message,
    status,
    data,
    fieldErrorsOf(b.data),
    retryAfter(options.headers),
  );
}

export function normalizeError(error: unknown, t: Translate): ApiError {
  if (error instanceof ApiError) return error;
  if (isCancel(error) || (error instanceof DOMException && error.name === 'AbortError')) {
    return new ApiError('cancelled', -1, t('errors.cancelled'));
  }
  if (error instanceof AxiosError) {
    if (error.response) {
      return normalizeHttpFailure(error.response.status, error.response.data, t, {
        path: error.config?.url,
        headers: error.response.headers,
      });
    }
    // A request that went out but got no answer: offline, DNS, timeout, CORS.
    if (error.request || error.code === AxiosError.ERR_NETWORK || error.code === AxiosError.ECONNABORTED) {
      return new ApiError('network', 0, t('errors.network'));
    }
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return new ApiError('network', 0, t('errors.network'));
  }
  return new ApiError('unknown', -1, t('errors.unknown'));
}
