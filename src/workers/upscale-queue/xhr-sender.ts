// One POST /upscale/single over XMLHttpRequest: the only browser API that reports upload
// progress. It also tells "nothing left the device" apart from "the server may have it".
import type { Sender, SendOutcome } from './send-types';
import { parseRetryAfterSeconds } from '../../lib/api/retry-after';

interface UpscaleReply {
  status?: string;
  url?: string;
  filename?: string;
  message?: string;
  code?: string | number;
  width?: number;
  height?: number;
}

export const xhrSender: Sender = (request, hooks, signal) =>
  new Promise<SendOutcome>((resolve) => {
    if (signal.aborted) return resolve({ kind: 'aborted' });
    const xhr = new XMLHttpRequest();
    let sent = false;
    const markSent = () => {
      if (sent) return;
      sent = true;
      hooks.onBytesSent();
    };
    xhr.open('POST', joinUrl(request.baseUrl, '/upscale/single'));
    if (request.token) xhr.setRequestHeader('Authorization', `Bearer ${request.token}`);
    xhr.setRequestHeader('Idempotency-Key', request.idempotencyKey);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.loaded > 0) markSent();
      if (e.lengthComputable && e.total > 0) hooks.onProgress((e.loaded / e.total) * 100);
    };
    xhr.upload.onload = () => {
      markSent();
      hooks.onProgress(100);
    };
    const onAbort = () => xhr.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (outcome: SendOutcome) => {
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    xhr.onabort = () => done({ kind: 'aborted' });
    xhr.onerror = () => done({ kind: 'network', reachedServer: sent });
    xhr.ontimeout = () => done({ kind: 'network', reachedServer: sent });
    xhr.onload = () => done(readReply(xhr, request.baseUrl));

    const form = new FormData();
    // The server has the file already (a finished resumable upload): name it instead of sending it.
    if (request.uploadId) form.append('image_upload_id', request.uploadId);
    else form.append('image', request.blob, request.fileName);
    form.append('model_name', request.params.modelName);
    form.append('tile_mode', String(request.params.tileMode));
    form.append('cache_mode', String(request.params.cacheMode));
    form.append('alpha', String(request.params.alpha));
    xhr.send(form);
  });

function readReply(xhr: XMLHttpRequest, baseUrl: string): SendOutcome {
  let body: UpscaleReply = {};
  try {
    body = JSON.parse(xhr.responseText) as UpscaleReply;
  } catch {
    // a proxy's HTML error page: fall back to the status
  }
  if (xhr.status >= 200 && xhr.status < 300 && body.status === 'success' && body.url) {
    return {
      kind: 'ok',
      url: new URL(body.url, baseUrl).href,
      filename: body.filename ?? '',
      message: body.message ?? '',
      width: typeof body.width === 'number' ? body.width : undefined,
      height: typeof body.height === 'number' ? body.height : undefined,
    };
  }
  const retryAfter = parseRetryAfterSeconds(xhr.getResponseHeader('Retry-After')) ?? 0;
  return {
    kind: 'http-error',
    status: xhr.status,
    code: body.code ?? xhr.status,
    message: body.message ?? '',
    retryAfterMs: retryAfter > 0 ? retryAfter * 1000 : undefined,
  };
}

/** Base URLs may or may not end in a slash; paths always start with one. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
