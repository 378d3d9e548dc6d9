// The main API's reply shape and its check: success false is a business failure (spec §7, §8).
import { ApiError } from './api-error';
import type { Translate } from './translate';

export interface Envelope<T> {
  success: boolean;
  code: number;
  message: string;
  data: T;
}

export function isEnvelope(body: unknown): body is Envelope<unknown> {
  return typeof body === 'object' && body !== null && typeof (body as { success?: unknown }).success === 'boolean';
}

export function unwrapEnvelope<T>(body: unknown, t: Translate): T {
  if (!isEnvelope(body)) throw new ApiError('unknown', -1, t('errors.unknown'), undefined, body);
  if (!body.success) {
    const message = typeof body.message === 'string' && body.message ? body.message : t('errors.businessFailed');
    throw new ApiError('business', typeof body.code === 'number' ? body.code : -1, message, undefined, body.data);
  }
  return body.data as T;
}
