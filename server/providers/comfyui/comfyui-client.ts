// ComfyUI's HTTP side, as its server.py exposes it:
//   POST /upload/image (multipart: image, type=input, subfolder, overwrite) → {name, subfolder, type}
//   POST /prompt {prompt, client_id, prompt_id?} → {prompt_id, number, node_errors}; 400 {error, node_errors}
//        (prompt_id: the caller's own id for the prompt, taken as given; a new UUID without it)
//   GET  /history/{prompt_id} → {[prompt_id]: {outputs, status: {status_str, completed, messages}}} or {}
//   GET  /queue → {queue_running: [[number, prompt_id, …]], queue_pending: […]}
//   POST /queue {delete: [prompt_id]}; POST /interrupt {prompt_id}
//   GET  /view?filename&subfolder&type → the file; GET /object_info → node types and their inputs
// An optional token goes as a Bearer header, for a reverse proxy in front of ComfyUI.
import { createHash } from 'node:crypto';
import { ProviderError } from '../capabilities.js';
import { retryAfterFromHeaders } from '../shared/retry-after.js';
import { httpError, promptRefused, PROVIDER } from './comfyui-errors.js';
import type { ApiWorkflow } from './comfyui-workflow.js';

export interface ComfyConnection {
  baseUrl: string;
  token?: string;
  /** Our client id: ComfyUI sends a prompt's progress to the WebSocket of the client that queued it. */
  clientId: string;
  /** Limit for one HTTP request (an upload or a download is the longest). */
  timeoutMs?: number;
}

export interface OutputFile {
  filename: string;
  subfolder: string;
  type: string;
}

export interface HistoryEntry {
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] };
  outputs?: Record<string, Record<string, unknown>>;
}

export interface QueueState {
  /** Prompt ids running now. */
  running: string[];
  /** Prompt ids waiting, in the order ComfyUI will run them. */
  pending: string[];
}

export type ObjectInfo = Record<string, { input?: { required?: Record<string, unknown>; optional?: Record<string, unknown> } }>;

export class ComfyClient {
  readonly base: string;
  private readonly timeoutMs: number;

  constructor(readonly connection: ComfyConnection) {
    this.base = connection.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = connection.timeoutMs ?? 120_000;
  }

  get headers(): Record<string, string> {
    return this.connection.token ? { authorization: `Bearer ${this.connection.token}` } : {};
  }

  /**
   * One request; transport trouble becomes a ProviderError. A GET whose kept-alive connection was
   * closed under it (ComfyUI restarted) is sent once more on a new one before it counts as unreachable.
   */
  private async send(what: string, path: string, init: RequestInit & { signal: AbortSignal }, retried = false): Promise<Response> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        ...init,
        headers: { ...this.headers, ...(init.headers as Record<string, string> | undefined) },
        signal: AbortSignal.any([init.signal, deadline]),
      });
    } catch (error) {
      const reset = !init.signal.aborted && !deadline.aborted && /closed|ECONNRESET|socket/i.test(String((error as Error).cause ?? ''));
      if (reset && !retried && (init.method ?? 'GET') === 'GET') return this.send(what, path, init, true);
      if (init.signal.aborted) throw new ProviderError('cancelled', 'cancelled', { provider: PROVIDER, cause: error });
      if (deadline.aborted) throw new ProviderError('timeout', `ComfyUI did not answer ${what} within ${this.timeoutMs} ms`, { provider: PROVIDER, cause: error });
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
      throw new ProviderError('unavailable', `cannot reach ComfyUI at ${this.base}: ${(error as Error).message}${cause}`, { provider: PROVIDER, cause: error });
    }
    return response;
  }

  private async json(what: string, path: string, signal: AbortSignal, body?: unknown): Promise<unknown> {
    const response = await this.send(what, path, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      signal,
    });
    const text = await this.read(response, signal, what);
    if (!response.ok) throw httpError(response.status, text, what, retryAfterFromHeaders(response.headers));
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ProviderError('bad_response', `ComfyUI answered ${what} with a body that is not JSON`, { provider: PROVIDER, cause: error });
    }
  }

  private async read(response: Response, signal: AbortSignal, what: string): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      if (signal.aborted) throw new ProviderError('cancelled', 'cancelled', { provider: PROVIDER, cause: error });
      throw new ProviderError('unavailable', `ComfyUI's answer to ${what} was cut`, { provider: PROVIDER, cause: error });
    }
  }

  /** Uploads an input image under a name made from its bytes (a repeat upload is the same file); answers the name LoadImage takes. */
  async uploadImage(data: Buffer, mimeType: string, signal: AbortSignal): Promise<string> {
    const extension = mimeType === 'image/jpeg' ? 'jpg' : mimeType.split('/')[1] ?? 'png';
    const filename = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.${extension}`;
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(data)], { type: mimeType }), filename);
    form.append('type', 'input');
    form.append('subfolder', 'loom');
    form.append('overwrite', 'true');
    const response = await this.send('the image upload', '/upload/image', { method: 'POST', body: form, signal });
    const text = await this.read(response, signal, 'the image upload');
    if (!response.ok) throw httpError(response.status, text, 'the image upload', retryAfterFromHeaders(response.headers));
    let answer: { name?: unknown; subfolder?: unknown };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch (error) {
      throw new ProviderError('bad_response', 'ComfyUI answered the image upload with a body that is not JSON', { provider: PROVIDER, cause: error });
    }
    if (typeof answer.name !== 'string' || !answer.name) throw new ProviderError('bad_response', 'ComfyUI did not name the uploaded image', { provider: PROVIDER });
    return typeof answer.subfolder === 'string' && answer.subfolder ? `${answer.subfolder}/${answer.name}` : answer.name;
  }

  /**
   * Queues a workflow under `promptId`, an id chosen (and saved) before the request goes out, so
   * the prompt can be found, followed or stopped even when this answer never arrives. Answers the
   * id ComfyUI gave it: an older ComfyUI ignores ours and names its own. A workflow ComfyUI
   * refuses is invalid_request naming each node's errors.
   */
  async queuePrompt(prompt: ApiWorkflow, promptId: string, signal: AbortSignal): Promise<{ promptId: string; number?: number }> {
    const response = await this.send('the prompt', '/prompt', {
      method: 'POST',
      body: JSON.stringify({ prompt, client_id: this.connection.clientId, prompt_id: promptId }),
      headers: { 'content-type': 'application/json' },
      signal,
    });
    const text = await this.read(response, signal, 'the prompt');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (response.status === 400) throw promptRefused(body ?? { error: text });
    if (!response.ok) throw httpError(response.status, text, 'the prompt', retryAfterFromHeaders(response.headers));
    const answer = (body ?? {}) as { prompt_id?: unknown; number?: unknown; node_errors?: unknown };
    if (typeof answer.prompt_id !== 'string' || !answer.prompt_id) throw new ProviderError('bad_response', 'ComfyUI queued the prompt without a prompt_id', { provider: PROVIDER });
    return { promptId: answer.prompt_id, ...(typeof answer.number === 'number' ? { number: answer.number } : {}) };
  }

  /** The prompt's history entry, or undefined while ComfyUI has none (still queued or running, or unknown). */
  async history(promptId: string, signal: AbortSignal): Promise<HistoryEntry | undefined> {
    const body = (await this.json('the history request', `/history/${encodeURIComponent(promptId)}`, signal)) as Record<string, HistoryEntry> | undefined;
    return body?.[promptId];
  }

  async queue(signal: AbortSignal): Promise<QueueState> {
    const body = (await this.json('the queue request', '/queue', signal)) as { queue_running?: unknown[]; queue_pending?: unknown[] } | undefined;
    const ids = (items: unknown[] | undefined) =>
      (items ?? [])
        .filter((item): item is [number, string] => Array.isArray(item) && typeof item[1] === 'string')
        .sort((a, b) => Number(a[0]) - Number(b[0]))
        .map((item) => item[1]);
    return { running: ids(body?.queue_running), pending: ids(body?.queue_pending) };
  }

  async deleteFromQueue(promptIds: string[], signal: AbortSignal): Promise<void> {
    await this.json('the queue deletion', '/queue', signal, { delete: promptIds });
  }

  /** Interrupts the prompt (ComfyUI versions that take no prompt_id interrupt whatever runs: the caller checks first). */
  async interrupt(promptId: string, signal: AbortSignal): Promise<void> {
    await this.json('the interrupt', '/interrupt', signal, { prompt_id: promptId });
  }

  async view(file: OutputFile, signal: AbortSignal): Promise<Buffer> {
    const query = new URLSearchParams({ filename: file.filename, subfolder: file.subfolder, type: file.type });
    const response = await this.send('the download', `/view?${query.toString()}`, { method: 'GET', signal });
    if (!response.ok) throw httpError(response.status, await this.read(response, signal, 'the download'), `the download of ${file.filename}`);
    try {
      return Buffer.from(await response.arrayBuffer());
    } catch (error) {
      if (signal.aborted) throw new ProviderError('cancelled', 'cancelled', { provider: PROVIDER, cause: error });
      throw new ProviderError('unavailable', `the download of ${file.filename} was cut`, { provider: PROVIDER, cause: error });
    }
  }

  async objectInfo(signal: AbortSignal): Promise<ObjectInfo> {
    const body = await this.json('the object_info request', '/object_info', signal);
    if (typeof body !== 'object' || body === null) throw new ProviderError('bad_response', 'ComfyUI answered object_info without node types', { provider: PROVIDER });
    return body as ObjectInfo;
  }
}
