// The HTTP client: one axios instance per API group with its base URL, timeout and headers, the
// bearer token, the user's language, the envelope check and spec §8's error handling.
import axios, { AxiosError, type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { currentLanguage, i18n } from '../../i18n/i18n';
import { getSession } from '../session/session-store';
import { API_GROUPS, sendsBearerToken, type ApiGroup } from './api-groups';
import { unwrapEnvelope } from './envelope';
import { expireSession } from './expire-session';
import { normalizeError } from './normalize-error';
import { refreshSession } from './refresh-session';
import { loadRuntimeConfig } from './runtime-config';
import type { Translate } from './translate';
import { toPercent } from './upload-progress';

const t: Translate = (key, options) => i18n.t(key, options);
const clients = new Map<ApiGroup, AxiosInstance>();

function clientFor(group: ApiGroup): AxiosInstance {
  const existing = clients.get(group);
  if (existing) return existing;
  const spec = API_GROUPS[group];
  const client = axios.create({ timeout: spec.timeout, headers: spec.headers, withCredentials: false });
  client.interceptors.request.use(async (config) => {
    const runtime = await loadRuntimeConfig();
    config.baseURL = runtime.api[spec.base];
    // Server messages come back in the language the user reads.
    config.headers.set('Accept-Language', currentLanguage());
    const token = getSession().token;
    if (token && sendsBearerToken(config.url)) config.headers.set('Authorization', `Bearer ${token}`);
    return config;
  });
  clients.set(group, client);
  return client;
}

function isRefusedToken(error: unknown, path: string | undefined): boolean {
  return error instanceof AxiosError && error.response?.status === 401 && sendsBearerToken(path);
}

async function send(group: ApiGroup, config: AxiosRequestConfig): Promise<AxiosResponse<unknown>> {
  try {
    return await clientFor(group).request<unknown>(config);
  } catch (error) {
    if (!isRefusedToken(error, config.url)) throw error;
    if (await refreshSession()) {
      try {
        return await clientFor(group).request<unknown>(config);
      } catch (retryError) {
        if (isRefusedToken(retryError, config.url)) expireSession();
        throw retryError;
      }
    }
    expireSession();
    throw error;
  }
}

/** One call: resolves with the envelope's data (or the raw body outside the main API). */
export async function request<T>(group: ApiGroup, config: AxiosRequestConfig): Promise<T> {
  let response: AxiosResponse<unknown>;
  try {
    response = await send(group, config);
  } catch (error) {
    throw normalizeError(error, t);
  }
  return API_GROUPS[group].envelope ? unwrapEnvelope<T>(response.data, t) : (response.data as T);
}

export const http = {
  get: <T>(group: ApiGroup, url: string, config: AxiosRequestConfig = {}) =>
    request<T>(group, { ...config, method: 'GET', url }),
  post: <T>(group: ApiGroup, url: string, data?: unknown, config: AxiosRequestConfig = {}) =>
    request<T>(group, { ...config, method: 'POST', url, data }),
  put: <T>(group: ApiGroup, url: string, data?: unknown, config: AxiosRequestConfig = {}) =>
    request<T>(group, { ...config, method: 'PUT', url, data }),
  delete: <T>(group: ApiGroup, url: string, config: AxiosRequestConfig = {}) =>
    request<T>(group, { ...config, method: 'DELETE', url }),
};

export interface UploadOptions {
  group?: ApiGroup;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** Multipart upload reporting progress as a percentage (spec §7). */
export function upload<T>(url: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return request<T>(options.group ?? 'file', {
    method: 'POST',
    url,
    data: form,
    signal: options.signal,
    onUploadProgress: (event) => options.onProgress?.(toPercent(event.loaded, event.total)),
  });
}
