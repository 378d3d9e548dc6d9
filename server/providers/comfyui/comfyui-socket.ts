// ComfyUI's WebSocket (/ws?clientId=…): what happens to the prompts we queued, as it happens.
// ComfyUI sends JSON messages {type, data} to the client whose client_id queued the prompt:
//   status {status: {exec_info: {queue_remaining}}}   the queue moved
//   execution_start {prompt_id}                       our prompt left the queue
//   execution_cached {nodes, prompt_id}               nodes whose results were reused
//   executing {node, prompt_id}                       a node started (node null: the prompt ended)
//   progress {value, max, node, prompt_id}            a step inside a node (sampler steps, frames)
//   executed {node, output, prompt_id}                a node finished with output
//   execution_success / execution_error / execution_interrupted {prompt_id, …}
// Binary frames are previews and are ignored. One socket serves every prompt of this adapter; it
// is open while a prompt is watched and reconnects after a drop (the watchers meanwhile fall back
// to GET /history and GET /queue, and check them again once it is back, since messages sent while
// it was down are lost). The client id is stable across our restarts, so a resumed prompt's
// progress comes to the new socket.
import WebSocket from 'ws';
import type { ExecutionErrorData } from './comfyui-errors.js';
import type { ComfyClient } from './comfyui-client.js';

export type PromptEnd =
  | { kind: 'success' }
  /** executing with node null: ended, the history says how. */
  | { kind: 'ended' }
  | { kind: 'error'; data: ExecutionErrorData }
  | { kind: 'interrupted'; nodeType?: string };

export interface PromptWatch {
  started: boolean;
  node?: string;
  progress?: { node: string; value: number; max: number };
  /** Nodes that finished (executed) or were taken from the cache. */
  finished: Set<string>;
  end?: PromptEnd;
}

export interface SocketOptions {
  /** First wait before reconnecting (doubling up to 10 s). */
  reconnectMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

export class ComfySocket {
  private ws: WebSocket | undefined;
  private readonly watches = new Map<string, PromptWatch>();
  private readonly listeners = new Set<() => void>();
  private attempts = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  connected = false;
  /** Prompts left in ComfyUI's queue, from its last status message. */
  queueRemaining: number | undefined;
  /** Counts every (re)connection, so a watcher knows to look at the history again. */
  generation = 0;

  constructor(
    private readonly client: ComfyClient,
    private readonly options: SocketOptions = {},
  ) {}

  /** Starts following a prompt (and opens the socket when it is not). */
  watch(promptId: string): PromptWatch {
    let watch = this.watches.get(promptId);
    if (!watch) {
      watch = { started: false, finished: new Set() };
      this.watches.set(promptId, watch);
    }
    this.closed = false;
    if (!this.ws && !this.timer) this.connect();
    return watch;
  }

  unwatch(promptId: string): void {
    this.watches.delete(promptId);
    if (this.watches.size === 0) this.close();
  }

  state(promptId: string): PromptWatch | undefined {
    return this.watches.get(promptId);
  }

  /** Called on every message or connection change; answers the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const ws = this.ws;
    this.ws = undefined;
    this.connected = false;
    ws?.removeAllListeners();
    ws?.on('error', () => undefined);
    ws?.terminate();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private connect(): void {
    this.timer = undefined;
    const url = new URL(`${this.client.base}/ws`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('clientId', this.client.connection.clientId);
    const ws = new WebSocket(url, { headers: this.client.headers, handshakeTimeout: 10_000 });
    this.ws = ws;
    ws.on('open', () => {
      this.connected = true;
      this.attempts = 0;
      this.generation++;
      this.notify();
    });
    ws.on('message', (raw, isBinary) => {
      if (isBinary) return;
      this.handle(raw.toString());
    });
    ws.on('error', (error) => {
      if (this.attempts === 0) this.options.log?.warn({ err: error }, 'ComfyUI WebSocket error; following prompts through /history meanwhile');
    });
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.connected = false;
      this.notify();
      if (this.closed || this.watches.size === 0) return;
      const wait = Math.min(10_000, (this.options.reconnectMs ?? 1000) * 2 ** this.attempts++);
      this.timer = setTimeout(() => this.connect(), wait);
      this.timer.unref();
    });
  }

  private handle(text: string): void {
    let message: { type?: unknown; data?: Record<string, unknown> };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    const data = message.data ?? {};
    if (message.type === 'status') {
      const remaining = (data.status as { exec_info?: { queue_remaining?: unknown } } | undefined)?.exec_info?.queue_remaining;
      if (typeof remaining === 'number') this.queueRemaining = remaining;
      this.notify();
      return;
    }
    const watch = typeof data.prompt_id === 'string' ? this.watches.get(data.prompt_id) : undefined;
    if (!watch) return;
    switch (message.type) {
      case 'execution_start':
        watch.started = true;
        break;
      case 'execution_cached':
        watch.started = true;
        for (const node of Array.isArray(data.nodes) ? data.nodes : []) watch.finished.add(String(node));
        break;
      case 'executing':
        watch.started = true;
        if (data.node === null || data.node === undefined) {
          watch.end ??= { kind: 'ended' };
        } else {
          if (watch.node && watch.node !== String(data.node)) watch.finished.add(watch.node);
          watch.node = String(data.node);
        }
        break;
      case 'progress':
        watch.started = true;
        if (typeof data.value === 'number' && typeof data.max === 'number') {
          watch.progress = { node: String(data.node ?? watch.node ?? ''), value: data.value, max: data.max };
        }
        break;
      case 'executed':
        watch.finished.add(String(data.node));
        break;
      case 'execution_success':
        watch.end = { kind: 'success' };
        break;
      case 'execution_error':
        watch.end = { kind: 'error', data: data as ExecutionErrorData };
        break;
      case 'execution_interrupted':
        watch.end = { kind: 'interrupted', ...(typeof data.node_type === 'string' ? { nodeType: data.node_type } : {}) };
        break;
      default:
        return;
    }
    this.notify();
  }
}
