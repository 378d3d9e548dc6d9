// Following one queued prompt to its end. The WebSocket says what happens as it happens; the
// HTTP side (GET /history/{id}, then GET /queue) is the truth whenever the socket cannot be
// trusted: it is down, it just came back (messages sent meanwhile are lost), the prompt has not
// started yet (its queue position), the prompt ended (its outputs), and every few seconds anyway.
// A prompt neither in the history nor in the queue is lost: ComfyUI was restarted or its queue
// cleared. Outputs are downloaded from GET /view.
import { ProviderError, type TaskProgress } from '../capabilities.js';
import { sleep } from '../shared/abort.js';
import type { ComfyClient, HistoryEntry, OutputFile } from './comfyui-client.js';
import { executionError, interruptedError, lostPrompt, PROVIDER, type ExecutionErrorData } from './comfyui-errors.js';
import type { ComfySocket, PromptWatch } from './comfyui-socket.js';
import { outputNodes, samplerNodes, type Workflow } from './comfyui-workflow.js';

export type PromptStatus =
  | { state: 'queued'; progress: TaskProgress }
  | { state: 'running'; progress: TaskProgress }
  | { state: 'done'; files: OutputFile[] }
  /** The run failed, or ComfyUI lost it: a new prompt is needed. */
  | { state: 'failed'; error: ProviderError };

export interface RunTiming {
  /** Between HTTP checks while the socket is down (default 2 s). */
  fallbackPollMs: number;
  /** Between HTTP checks while the socket reports (a safety net; default 15 s). */
  checkEveryMs: number;
}

export const DEFAULT_TIMING: RunTiming = { fallbackPollMs: 2000, checkEveryMs: 15_000 };

export class ComfyRuns {
  /** Per prompt: when the HTTP side was last asked, and the socket generation it was asked in. */
  private readonly checked = new Map<string, { at: number; generation: number }>();

  constructor(
    readonly client: ComfyClient,
    readonly socket: ComfySocket,
    private readonly timing: RunTiming = DEFAULT_TIMING,
  ) {}

  /**
   * Where the prompt is now: waiting, running, done or failed ('unavailable' for a prompt ComfyUI
   * lost). Throws only when ComfyUI cannot be asked (unreachable, refusing the token, cancelled).
   */
  async status(promptId: string, workflow: Workflow | undefined, signal: AbortSignal): Promise<PromptStatus> {
    const watch = this.socket.watch(promptId);
    if (watch.end?.kind === 'error') return { state: 'failed', error: executionError(watch.end.data) };
    if (watch.end?.kind === 'interrupted') return { state: 'failed', error: interruptedError(watch.end.nodeType) };
    const last = this.checked.get(promptId);
    const trusted =
      this.socket.connected &&
      watch.started &&
      !watch.end &&
      last !== undefined &&
      last.generation === this.socket.generation &&
      Date.now() - last.at < this.timing.checkEveryMs;
    if (trusted) return { state: 'running', progress: progressOf(watch, workflow) };
    this.checked.set(promptId, { at: Date.now(), generation: this.socket.generation });

    const entry = await this.client.history(promptId, signal);
    if (entry) return outcome(entry, workflow);
    const queue = await this.client.queue(signal);
    if (queue.running.includes(promptId)) return { state: 'running', progress: progressOf(watch, workflow) };
    const index = queue.pending.indexOf(promptId);
    if (index >= 0) return { state: 'queued', progress: { queueAhead: index + queue.running.length } };
    // Between the two answers it may have finished.
    const again = await this.client.history(promptId, signal);
    if (again) return outcome(again, workflow);
    return { state: 'failed', error: lostPrompt(promptId) };
  }

  /** Waits for the prompt's end, telling its progress as it goes; answers its output files. */
  async wait(promptId: string, workflow: Workflow, signal: AbortSignal, onProgress?: (progress: TaskProgress) => void): Promise<OutputFile[]> {
    let told = '';
    try {
      for (;;) {
        const status = await this.status(promptId, workflow, signal);
        if (status.state === 'done') return status.files;
        if (status.state === 'failed') throw status.error;
        const text = JSON.stringify(status.progress);
        if (text !== told) {
          told = text;
          onProgress?.(status.progress);
        }
        const watch = this.socket.state(promptId);
        const quiet = this.socket.connected && watch?.started === true && !watch.end;
        await this.nextChange(quiet ? this.timing.checkEveryMs : this.timing.fallbackPollMs, signal);
      }
    } finally {
      this.forget(promptId);
    }
  }

  /** Stops following a prompt. */
  forget(promptId: string): void {
    this.checked.delete(promptId);
    this.socket.unwatch(promptId);
  }

  /** Resolves on the socket's next message or connection change, or after `wait`. */
  private nextChange(wait: number, signal: AbortSignal): Promise<void> {
    const stop = new AbortController();
    const changed = new Promise<void>((resolve) => {
      const off = this.socket.onChange(() => {
        off();
        resolve();
      });
      stop.signal.addEventListener('abort', off, { once: true });
    });
    return Promise.race([changed, sleep(wait, AbortSignal.any([signal, stop.signal]), PROVIDER)]).finally(() => stop.abort()).catch((error: unknown) => {
      if (signal.aborted) throw new ProviderError('cancelled', 'cancelled', { provider: PROVIDER, cause: signal.reason });
      throw error;
    });
  }

  /**
   * Takes the prompt off ComfyUI: deleted from the queue while it waits, interrupted while it
   * runs (only when it is ours that runs: an older ComfyUI interrupts whatever runs). Best effort.
   */
  async cancel(promptId: string, signal: AbortSignal): Promise<void> {
    try {
      const queue = await this.client.queue(signal);
      if (queue.pending.includes(promptId)) await this.client.deleteFromQueue([promptId], signal);
      else if (queue.running.includes(promptId)) await this.client.interrupt(promptId, signal);
    } finally {
      this.forget(promptId);
    }
  }

  async download(file: OutputFile, signal: AbortSignal): Promise<Buffer> {
    return this.client.view(file, signal);
  }
}

function outcome(entry: HistoryEntry, workflow: Workflow | undefined): PromptStatus {
  try {
    return { state: 'done', files: finishedFiles(entry, workflow) };
  } catch (error) {
    if (error instanceof ProviderError) return { state: 'failed', error };
    throw error;
  }
}

/** The output files of a finished prompt (those of the nodes titled "output" when there are), or its failure. */
export function finishedFiles(entry: HistoryEntry, workflow: Workflow | undefined): OutputFile[] {
  const status = entry.status;
  if (status?.status_str === 'error' || status?.completed === false) {
    const messages = status.messages ?? [];
    const interrupted = messages.find(([type]) => type === 'execution_interrupted');
    if (interrupted) throw interruptedError(typeof interrupted[1].node_type === 'string' ? interrupted[1].node_type : undefined);
    const error = messages.find(([type]) => type === 'execution_error');
    if (error) throw executionError(error[1] as ExecutionErrorData);
    if (status.status_str === 'error') throw new ProviderError('invalid_request', 'ComfyUI reports the run failed without saying why', { provider: PROVIDER });
  }
  const outputs = entry.outputs ?? {};
  const wanted = workflow ? outputNodes(workflow).filter((id) => id in outputs) : [];
  const nodes = wanted.length > 0 ? wanted : Object.keys(outputs);
  const files: OutputFile[] = [];
  for (const id of nodes) {
    const output = outputs[id] ?? {};
    for (const key of ['videos', 'gifs', 'images']) {
      const list = output[key];
      if (!Array.isArray(list)) continue;
      for (const item of list as Partial<OutputFile>[]) {
        if (typeof item?.filename === 'string') files.push({ filename: item.filename, subfolder: item.subfolder ?? '', type: item.type ?? 'output' });
      }
    }
  }
  return files;
}

/**
 * Progress a person can read: model loading before the first step, then the sampler's steps
 * (several samplers share the bar), then whatever counts after it (decoding frames).
 */
export function progressOf(watch: PromptWatch, workflow: Workflow | undefined): TaskProgress {
  if (!watch.started) return { fraction: 0 };
  const samplers = workflow ? samplerNodes(workflow) : [];
  const current = watch.progress;
  const samplersDone = samplers.filter((id) => watch.finished.has(id) && id !== current?.node).length;
  if (!current || current.max <= 0) {
    return { fraction: samplers.length > 0 ? 0.02 + (0.88 * samplersDone) / samplers.length : 0.02 };
  }
  const share = Math.min(1, current.value / current.max);
  const isSampler = samplers.includes(current.node) || samplers.length === 0;
  if (isSampler) {
    const count = Math.max(1, samplers.length);
    return { fraction: 0.02 + (0.88 * (Math.min(samplersDone, count - 1) + share)) / count, stage: { unit: 'steps', value: current.value, max: current.max } };
  }
  const unit = workflow && workflow.kind !== 'images' ? 'frames' : 'steps';
  return { fraction: 0.9 + 0.1 * share, stage: { unit, value: current.value, max: current.max } };
}
