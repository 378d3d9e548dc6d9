// How ComfyUI's failures become ProviderErrors. ComfyUI has no error codes of its own: an HTTP
// status (a reverse proxy's 401/403/429/5xx, a 400 for a prompt it will not queue), the body of a
// refused prompt ({error: {type, message}, node_errors: {id: {errors: [{message, details}], class_type}}}),
// and the execution_error message of a run ({node_id, node_type, exception_type, exception_message}).
import { ProviderError, type ProviderErrorKind } from '../capabilities.js';
import { snippet } from '../shared/fetch-json.js';

export const PROVIDER = 'comfyui';

export function httpError(status: number, body: string, what: string, retryAfterMs?: number): ProviderError {
  const detail = `ComfyUI answered HTTP ${status} to ${what}${body ? `: ${snippet(body)}` : ''}`;
  let kind: ProviderErrorKind = 'bad_response';
  if (status === 401 || status === 403) kind = 'auth';
  else if (status === 429) kind = 'rate_limited';
  else if (status === 504 || status === 408) kind = 'timeout';
  else if (status >= 500) kind = 'unavailable';
  else if (status >= 400) kind = 'invalid_request';
  return new ProviderError(kind, detail, { provider: PROVIDER, status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
}

interface NodeErrorEntry {
  errors?: { message?: string; details?: string }[];
  class_type?: string;
}

/** "node 14 (KSampler): Value not in list: ckpt_name: 'x' not in [...]" for each node ComfyUI refused. */
export function describeNodeErrors(nodeErrors: unknown): string[] {
  if (typeof nodeErrors !== 'object' || nodeErrors === null) return [];
  return Object.entries(nodeErrors as Record<string, NodeErrorEntry>).flatMap(([id, entry]) =>
    (entry.errors ?? []).map((e) => `node ${id} (${entry.class_type ?? '?'}): ${[e.message, e.details].filter(Boolean).join(': ')}`),
  );
}

/** POST /prompt refused (400): the workflow does not validate on that server. */
export function promptRefused(body: unknown): ProviderError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; node_errors?: unknown };
  const error = typeof b.error === 'string' ? b.error : (b.error as { message?: string } | undefined)?.message;
  const nodes = describeNodeErrors(b.node_errors);
  const text = [error || 'the prompt was refused', ...nodes].join('; ');
  return new ProviderError('invalid_request', `ComfyUI refused the workflow: ${text}`.slice(0, 2000), { provider: PROVIDER, status: 400 });
}

export interface ExecutionErrorData {
  node_id?: string;
  node_type?: string;
  exception_type?: string;
  exception_message?: string;
}

/**
 * A run that failed in a node. Out of GPU memory may pass when the box is less busy: the job runner
 * tries again later. Anything else (a missing model file, a node's own error) fails the same way
 * every time: the parameters were not accepted.
 */
export function executionError(data: ExecutionErrorData): ProviderError {
  const where = `node ${data.node_id ?? '?'} (${data.node_type ?? '?'})`;
  const what = `${data.exception_type ?? 'error'}: ${data.exception_message ?? ''}`.trim();
  const memory = /out ?of ?memory|OutOfMemory|CUDA error: out of memory|allocat/i.test(`${data.exception_type} ${data.exception_message}`);
  return new ProviderError(memory ? 'unavailable' : 'invalid_request', `ComfyUI failed in ${where}: ${what}`.slice(0, 2000), { provider: PROVIDER });
}

/** Someone stopped the run on the ComfyUI box (its own Cancel, or another client's /interrupt). */
export function interruptedError(nodeType?: string): ProviderError {
  return new ProviderError('cancelled', `the run was interrupted on the ComfyUI server${nodeType ? ` in ${nodeType}` : ''}`, { provider: PROVIDER });
}

/** ComfyUI no longer knows the prompt: it was restarted, or its queue was cleared. */
export function lostPrompt(promptId: string): ProviderError {
  return new ProviderError('unavailable', `ComfyUI no longer knows prompt ${promptId} (restarted, or its queue was cleared); it is queued again`, {
    provider: PROVIDER,
  });
}
