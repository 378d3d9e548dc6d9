// POST {upscale}/upscale/single for a small crop, then the result image itself as a Blob. The
// variant preview calls it once per Real-CUGAN variant; the batch queue has its own sender in the
// worker. Defaults from spec §9: tile_mode 0, cache_mode 0, alpha 1.
import { ApiError, loadRuntimeConfig, upload } from '../../../lib/api';
import type { ApiSchema } from '../../../lib/api/api-types';
import { getSession } from '../../../lib/session/session-store';

export type UpscaleSingleReply = ApiSchema<'UpscaleDone'>;

export interface UpscaleCropRequest {
  image: Blob;
  fileName: string;
  modelName: string;
  tileMode?: number;
  cacheMode?: number;
  alpha?: number;
  signal?: AbortSignal;
}

export async function postUpscaleSingle(request: UpscaleCropRequest): Promise<UpscaleSingleReply> {
  const form = new FormData();
  form.append('image', request.image, request.fileName);
  form.append('model_name', request.modelName);
  form.append('tile_mode', String(request.tileMode ?? 0));
  form.append('cache_mode', String(request.cacheMode ?? 0));
  form.append('alpha', String(request.alpha ?? 1));
  const reply = await upload<UpscaleSingleReply>('/upscale/single', form, {
    group: 'upscale',
    signal: request.signal,
  });
  if (reply?.status !== 'success' || !reply.url) {
    throw new ApiError('business', -1, reply?.message || 'batch upscale failed');
  }
  return reply;
}

/** Upscales the crop with one model and downloads the result. */
export async function upscaleCrop(request: UpscaleCropRequest): Promise<Blob> {
  const reply = await postUpscaleSingle(request);
  const base = (await loadRuntimeConfig()).api.upscale;
  const url = new URL(reply.url ?? '', new URL(base, globalThis.location?.href)).href;
  const token = getSession().token;
  const response = await fetch(url, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal: request.signal,
    credentials: 'omit',
  });
  if (!response.ok)
    throw new ApiError('http', response.status, `download ${response.status}`, response.status);
  return response.blob();
}

export type UpscaleCropFn = (request: UpscaleCropRequest) => Promise<Blob>;
