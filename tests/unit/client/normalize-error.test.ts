import { AxiosError, AxiosHeaders, CanceledError, type InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/api/api-error';
import { unwrapEnvelope } from '../../../src/lib/api/envelope';
import { normalizeError, normalizeHttpFailure } from '../../../src/lib/api/normalize-error';

// Messages are keys here, so the mapping itself is what is checked.
const t = (key: string, options?: Record<string, unknown>) =>
  options ? `${key}:${JSON.stringify(options)}` : key;

function httpError(
  status: number,
  data: unknown,
  url = '/user/profile',
  headers: Record<string, string> = {},
): AxiosError {
  const config = { url, headers: new AxiosHeaders() } as InternalAxiosRequestConfig;
  return new AxiosError(
    'failed',
    'ERR_BAD_RESPONSE',
    config,
    {},
    { status, statusText: '', data, headers, config },
  );
}

describe('HTTP failures (spec §8)', () => {
  it.each([
    [403, 'errors.forbidden'],
    [404, 'errors.notFound'],
    [500, 'errors.serverError'],
    [502, 'errors.serviceUnavailable'],
    [503, 'errors.serviceUnavailable'],
    [418, 'errors.requestFailed'],
  ])('%i without a server message reads %s', (status, key) => {
    const error = normalizeError(httpError(status, '<html>proxy</html>'), t);
    expect(error).toMatchObject({ kind: 'http', code: status, status, message: key });
  });

  it('401 outside sign-in always reads "login expired"', () => {
    const error = normalizeError(
      httpError(401, { success: false, code: 401, message: 'token bad', data: null }),
      t,
    );
    expect(error.message).toBe('errors.unauthorized');
    expect(error.status).toBe(401);
  });

  it('a sign-in call keeps the server text as received', () => {
    const body = { success: false, code: 400, message: 'Login failed, check your credentials', data: null };
    expect(normalizeError(httpError(400, body, '/auth/login-password'), t).message).toBe(
      'Login failed, check your credentials',
    );
    expect(normalizeError(httpError(401, { ...body, code: 401 }, '/auth/login'), t).message).toBe(
      'Login failed, check your credentials',
    );
  });

  it('server code, data, field errors and Retry-After are kept', () => {
    const error = normalizeHttpFailure(
      429,
      {
        success: false,
        code: 429,
        message: 'slow down',
        data: { errors: [{ field: 'phone', message: 'bad' }, 'junk'] },
      },
      t,
      { headers: { 'retry-after': '42' } },
    );
    expect(error).toMatchObject({ code: 429, message: 'slow down', retryAfterSeconds: 42 });
    expect(error.fieldErrors).toEqual([{ field: 'phone', message: 'bad' }]);
  });
});

describe('other failures', () => {
  it('no response is code 0 with the network message', () => {
    const config = { url: '/x', headers: new AxiosHeaders() } as InternalAxiosRequestConfig;
    const error = normalizeError(new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {}), t);
    expect(error).toMatchObject({ kind: 'network', code: 0, message: 'errors.network' });
  });

  it('a timeout is a missing response too', () => {
    const error = normalizeError(new AxiosError('timeout', AxiosError.ECONNABORTED), t);
    expect(error).toMatchObject({ code: 0, message: 'errors.network' });
  });

  it('anything else is code -1 unknown', () => {
    expect(normalizeError(new Error('boom'), t)).toMatchObject({
      kind: 'unknown',
      code: -1,
      message: 'errors.unknown',
    });
    expect(normalizeError('weird', t)).toMatchObject({ code: -1 });
  });

  it('cancellation is its own kind, never an error to show', () => {
    expect(normalizeError(new CanceledError(), t).kind).toBe('cancelled');
    expect(normalizeError(new DOMException('stop', 'AbortError'), t).kind).toBe('cancelled');
  });

  it('an ApiError passes through unchanged', () => {
    const original = new ApiError('business', 7, 'nope');
    expect(normalizeError(original, t)).toBe(original);
  });
});

describe('envelope check', () => {
  it('returns data on success', () => {
    expect(unwrapEnvelope({ success: true, code: 200, message: 'ok', data: { a: 1 } }, t)).toEqual({ a: 1 });
  });

  it('success false is a business failure with the server message, or the default', () => {
    expect(() =>
      unwrapEnvelope({ success: false, code: 1001, message: 'quota used up', data: null }, t),
    ).toThrow('quota used up');
    expect(() => unwrapEnvelope({ success: false, code: 1001, message: '', data: null }, t)).toThrow(
      expect.objectContaining({ kind: 'business', code: 1001, message: 'errors.businessFailed' }),
    );
  });

  it('a body that is not an envelope is an unknown error', () => {
    expect(() => unwrapEnvelope('<html>', t)).toThrow('errors.unknown');
  });
});
