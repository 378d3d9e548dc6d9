import axios, { AxiosError, AxiosHeaders, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../src/i18n/i18n';
import { http, upload } from '../../../src/lib/api/http-client';
import { primeRuntimeConfig } from '../../../src/lib/api/runtime-config';
import { onSessionExpired } from '../../../src/lib/session/session-events';
import { followOtherTabs, getSession, saveGrant } from '../../../src/lib/session/session-store';

// Requests go through a fake axios adapter: what the client sends and how it reacts is checked
// without a network.
type Handler = (config: InternalAxiosRequestConfig) => { status: number; data: unknown };
let handler: Handler = () => ({ status: 200, data: { success: true, code: 200, message: 'ok', data: null } });
const seen: InternalAxiosRequestConfig[] = [];

const adapter: AxiosAdapter = async (config) => {
  seen.push(config);
  const { status, data } = handler(config);
  const response = { status, statusText: '', data, headers: {}, config };
  if (status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, {}, response);
  config.onUploadProgress?.({ loaded: 50, total: 200, bytes: 50, lengthComputable: true });
  return response;
};

const envelope = (data: unknown) => ({ success: true, code: 200, message: 'ok', data });
const user = { id: 1, account: 'ann', user_level: 'GENERAL' };

beforeAll(async () => {
  // The storage events below stand for another tab, as the app follows them once it shows.
  followOtherTabs();
  axios.defaults.adapter = adapter;
  await initI18n();
  primeRuntimeConfig({ api: { main: '/api', image: '/image-api', upscale: '/upscale-api', third: '/third-api' }, version: '1.0.0' });
});

afterEach(() => {
  seen.length = 0;
  localStorage.clear();
  window.dispatchEvent(new StorageEvent('storage', { key: null }));
});

const header = (config: InternalAxiosRequestConfig | undefined, name: string) => AxiosHeaders.from(config?.headers ?? {}).get(name);

describe('http client', () => {
  it('unwraps the envelope and sends JSON, language and bearer token', async () => {
    saveGrant({ token: 'access-1', refresh_token: 'refresh-1' }, 'ann');
    handler = () => ({ status: 200, data: envelope(user) });
    await expect(http.get('user', '/user/profile')).resolves.toEqual(user);
    expect(seen[0]?.baseURL).toBe('/api');
    expect(seen[0]?.timeout).toBe(600_000);
    expect(header(seen[0], 'Authorization')).toBe('Bearer access-1');
    expect(header(seen[0], 'Accept-Language')).toMatch(/^(zh-CN|en-US|vi-VN|th-TH|id-ID)$/);
    expect(seen[0]?.withCredentials).toBe(false);
  });

  it('sends no token on paths containing /login', async () => {
    saveGrant({ token: 'access-1' }, 'ann');
    handler = () => ({ status: 200, data: envelope({ token: 'x' }) });
    await http.post('auth', '/auth/login-password', { account: 'a', password: 'b' });
    expect(header(seen[0], 'Authorization')).toBeFalsy();
    await http.post('auth', '/auth/send-code', { phone: '1' });
    expect(header(seen[1], 'Authorization')).toBe('Bearer access-1');
  });

  it('per-group timeouts and the third group version header', async () => {
    handler = () => ({ status: 200, data: { raw: true } });
    await expect(http.get('third', '/anything')).resolves.toEqual({ raw: true });
    expect(seen[0]?.timeout).toBe(150_000);
    expect(seen[0]?.baseURL).toBe('/third-api');
    expect(header(seen[0], 'X-API-Version')).toBe('v1');
    await http.get('image', '/img');
    expect(seen[1]?.timeout).toBe(600_000);
  });

  it('a business failure rejects with the server message', async () => {
    handler = () => ({ status: 200, data: { success: false, code: 4001, message: 'prompt exists', data: null } });
    await expect(http.post('main', '/prompts')).rejects.toMatchObject({ kind: 'business', code: 4001, message: 'prompt exists' });
  });

  it('uploads report progress as a percentage on the file group', async () => {
    handler = () => ({ status: 200, data: envelope({ id: 9 }) });
    const progress: number[] = [];
    await expect(upload('/files', new FormData(), { onProgress: (p) => progress.push(p) })).resolves.toEqual({ id: 9 });
    expect(progress).toEqual([25]);
    expect(seen[0]?.timeout).toBe(300_000);
  });

  it('a 401 is retried once after a silent refresh; the new tokens are stored', async () => {
    saveGrant({ token: 'old', refresh_token: 'r-old' }, 'ann');
    handler = (config) => {
      if (config.url?.endsWith('/user/refresh/')) return { status: 200, data: envelope({ token: 'new', refresh_token: 'r-new', user }) };
      return header(config, 'Authorization') === 'Bearer new' ? { status: 200, data: envelope('fine') } : { status: 401, data: { success: false, code: 401, message: 'expired', data: null } };
    };
    await expect(http.get('main', '/history')).resolves.toBe('fine');
    expect(getSession().token).toBe('new');
    expect(localStorage.getItem('refreshToken')).toBe('r-new');
    expect(seen.map((c) => c.url)).toEqual(['/history', '/api/user/refresh/', '/history']);
  });

  it('when the refresh fails: session cleared, one notice, "login expired"', async () => {
    saveGrant({ token: 'old', refresh_token: 'r-old' }, 'ann');
    const expired = vi.fn();
    const stop = onSessionExpired(expired);
    handler = () => ({ status: 401, data: { success: false, code: 401, message: 'expired', data: null } });
    const results = await Promise.allSettled([http.get('main', '/a'), http.get('main', '/b')]);
    stop();
    for (const result of results) expect(result).toMatchObject({ status: 'rejected', reason: { code: 401, status: 401 } });
    expect(expired).toHaveBeenCalledTimes(1);
    expect(getSession().isLoggedIn).toBe(false);
    expect(localStorage.getItem('token')).toBeNull();
    expect(seen.filter((c) => c.url?.endsWith('/user/refresh/'))).toHaveLength(1);
  });

  it.each([
    ['gets no answer', () => {
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, undefined, {});
    }],
    ['meets a failing server', () => ({ status: 503, data: { success: false, code: 503, message: 'busy', data: null } })],
  ])('when the refresh %s: a network error, and the session and its refresh token stay', async (_, refresh) => {
    saveGrant({ token: 'old', refresh_token: 'r-old' }, 'ann');
    const expired = vi.fn();
    const stop = onSessionExpired(expired);
    handler = (config) =>
      config.url?.endsWith('/user/refresh/') ? refresh() : { status: 401, data: { success: false, code: 401, message: 'expired', data: null } };
    await expect(http.get('main', '/a')).rejects.toMatchObject({ kind: 'network', code: 0 });
    stop();
    expect(expired).not.toHaveBeenCalled();
    expect(getSession().isLoggedIn).toBe(true);
    expect(localStorage.getItem('refreshToken')).toBe('r-old');
  });

  it('no response is the network error with code 0', async () => {
    handler = () => {
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, undefined, {});
    };
    await expect(http.get('main', '/x')).rejects.toMatchObject({ kind: 'network', code: 0 });
  });
});
