// A local server that speaks ComfyUI's documented HTTP and WebSocket protocol, for the comfyui
// adapter's tests and the browser test: POST /upload/image, POST /prompt (checked against its
// /object_info: unknown node types, missing model files and images answer 400 with node_errors),
// GET /queue, POST /queue {delete}, POST /interrupt, GET /history/{id}, GET /view, GET
// /object_info, and /ws?clientId=… with status, execution_start, execution_cached, executing,
// progress, executed, execution_success / execution_error / execution_interrupted, sent to the
// client that queued the prompt. POST /prompt takes the caller's own `prompt_id` when the body
// has one (server.py: str(json_data.get("prompt_id", uuid.uuid4()))). It runs one prompt at a
// time, like ComfyUI, and makes real outputs: a PNG (sharp) from the first loaded image for
// SaveImage, an MP4 (ffmpeg) of the first frame for SaveVideo. A test can pause a run at a sampler
// step, fail it there, hold the answers to POST /prompt (the prompt is queued, its answer late, as
// over a slow link), drop the sockets (and refuse new ones), or restart the server (queue and
// history forgotten).
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';
import { resolveFfmpegPath } from '../../server/providers/local/ffmpeg-path.js';

type Inputs = Record<string, unknown>;
interface Node {
  class_type: string;
  inputs: Inputs;
  _meta?: { title?: string };
}
interface Prompt {
  id: string;
  number: number;
  nodes: Record<string, Node>;
  clientId: string | undefined;
}
interface OutputFile {
  filename: string;
  subfolder: string;
  type: string;
}
interface HistoryEntry {
  prompt: unknown[];
  outputs: Record<string, Record<string, unknown>>;
  status: { status_str: 'success' | 'error'; completed: boolean; messages: [string, Record<string, unknown>][] };
}

const MODEL_FILES = [
  'flux1-dev-kontext_fp8_scaled.safetensors',
  'clip_l.safetensors',
  't5xxl_fp8_e4m3fn_scaled.safetensors',
  'ae.safetensors',
  'wan2.2_ti2v_5B_fp16.safetensors',
  'umt5_xxl_fp8_e4m3fn_scaled.safetensors',
  'wan2.2_vae.safetensors',
  'wan2.1_flf2v_720p_14B_fp8_e4m3fn.safetensors',
  'wan_2.1_vae.safetensors',
  'clip_vision_h.safetensors',
];

/** Node types this server has, with their inputs as /object_info lists them (COMBO lists for the model files). */
function nodeTypes(models: string[]): Record<string, { input: { required: Record<string, unknown>; optional?: Record<string, unknown> }; output_node?: boolean }> {
  const combo = (options: string[]) => [options, {}];
  const int = ['INT', { default: 0 }];
  return {
    UNETLoader: { input: { required: { unet_name: combo(models), weight_dtype: combo(['default', 'fp8_e4m3fn']) } } },
    DualCLIPLoader: { input: { required: { clip_name1: combo(models), clip_name2: combo(models), type: combo(['flux', 'sdxl']) } } },
    CLIPLoader: { input: { required: { clip_name: combo(models), type: combo(['wan', 'stable_diffusion']) }, optional: { device: combo(['default', 'cpu']) } } },
    VAELoader: { input: { required: { vae_name: combo(models) } } },
    CLIPVisionLoader: { input: { required: { clip_name: combo(models) } } },
    // The image list is the input folder's files; LoadImage checks uploaded names itself (VALIDATE_INPUTS).
    LoadImage: { input: { required: { image: combo(['example.png']) } } },
    ImageStitch: { input: { required: { image1: ['IMAGE'], direction: combo(['right', 'down', 'left', 'up']), match_image_size: ['BOOLEAN'], spacing_width: int, spacing_color: combo(['white', 'black']) }, optional: { image2: ['IMAGE'] } } },
    FluxKontextImageScale: { input: { required: { image: ['IMAGE'] } } },
    VAEEncode: { input: { required: { pixels: ['IMAGE'], vae: ['VAE'] } } },
    VAEDecode: { input: { required: { samples: ['LATENT'], vae: ['VAE'] } } },
    CLIPTextEncode: { input: { required: { text: ['STRING', { multiline: true }], clip: ['CLIP'] } } },
    ReferenceLatent: { input: { required: { conditioning: ['CONDITIONING'] }, optional: { latent: ['LATENT'] } } },
    FluxGuidance: { input: { required: { conditioning: ['CONDITIONING'], guidance: ['FLOAT'] } } },
    ConditioningZeroOut: { input: { required: { conditioning: ['CONDITIONING'] } } },
    EmptySD3LatentImage: { input: { required: { width: int, height: int, batch_size: int } } },
    KSampler: {
      input: {
        required: {
          model: ['MODEL'], seed: int, steps: int, cfg: ['FLOAT'], sampler_name: combo(['euler', 'uni_pc']), scheduler: combo(['simple', 'normal']),
          positive: ['CONDITIONING'], negative: ['CONDITIONING'], latent_image: ['LATENT'], denoise: ['FLOAT'],
        },
      },
    },
    ModelSamplingSD3: { input: { required: { model: ['MODEL'], shift: ['FLOAT'] } } },
    Wan22ImageToVideoLatent: { input: { required: { vae: ['VAE'], width: int, height: int, length: int, batch_size: int }, optional: { start_image: ['IMAGE'] } } },
    CLIPVisionEncode: { input: { required: { clip_vision: ['CLIP_VISION'], image: ['IMAGE'], crop: combo(['none', 'center']) } } },
    WanFirstLastFrameToVideo: {
      input: {
        required: { positive: ['CONDITIONING'], negative: ['CONDITIONING'], vae: ['VAE'], width: int, height: int, length: int, batch_size: int },
        optional: { clip_vision_start_image: ['CLIP_VISION_OUTPUT'], clip_vision_end_image: ['CLIP_VISION_OUTPUT'], start_image: ['IMAGE'], end_image: ['IMAGE'] },
      },
    },
    CreateVideo: { input: { required: { images: ['IMAGE'], fps: ['FLOAT'] } } },
    SaveImage: { input: { required: { images: ['IMAGE'], filename_prefix: ['STRING'] } }, output_node: true },
    SaveVideo: { input: { required: { video: ['VIDEO'], filename_prefix: ['STRING'], format: combo(['auto', 'mp4']), codec: combo(['auto', 'h264']) } }, output_node: true },
  };
}

export interface DoubleOptions {
  /** Required as "Authorization: Bearer <token>" on every request and the socket (a reverse proxy's). */
  token?: string;
  /** Pause between sampler steps (default 2 ms): paces the run, nothing depends on it. */
  stepMs?: number;
  /** Largest side of the made images and videos (default 256), so tests stay quick. */
  maxSide?: number;
  /** Node types this server lacks. */
  withoutNodes?: string[];
  /** Model files this server lacks. */
  withoutModels?: string[];
  port?: number;
}

interface Pause {
  step: number;
  reached: () => void;
  release: Promise<void>;
  releaseNow: () => void;
}

export class ComfyDouble {
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  readonly prompts = new Map<string, Prompt>();
  /** Ids of the prompts that ran to their end (rendered), in order. */
  readonly rendered: string[] = [];
  private server: Server | undefined;
  private wss = new WebSocketServer({ noServer: true });
  private sockets = new Map<string, WebSocket>();
  private inputs = new Map<string, Buffer>();
  private outputs = new Map<string, Buffer>();
  private history = new Map<string, HistoryEntry>();
  private pending: Prompt[] = [];
  private running: Prompt | undefined;
  private interrupted = false;
  private number = 0;
  private counter = 0;
  private pauses: Pause[] = [];
  private failures: { step: number; exception_type: string; exception_message: string }[] = [];
  private refuseSockets = false;
  private port = 0;
  private readonly workDir = mkdtempSync(path.join(tmpdir(), 'comfy-double-'));
  private worker: Promise<void> = Promise.resolve();
  private epoch = 0;
  /** Releases the run paused now (a restart abandons it). */
  private waiting: (() => void) | undefined;
  /** While set, answers to POST /prompt wait here (the prompt itself is queued at once). */
  private heldAnswers: (() => void)[] | undefined;

  private constructor(private readonly options: DoubleOptions) {}

  static async start(options: DoubleOptions = {}): Promise<ComfyDouble> {
    const double = new ComfyDouble(options);
    await double.listen(options.port ?? 0);
    return double;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Requests seen, as "METHOD /path". */
  seen(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  /** The next run to reach sampler step `step` waits there until released. */
  pauseAt(step: number): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.pauses.push({ step, reached, release: released, releaseNow: () => release() });
    return { reached: reachedPromise, release };
  }

  /**
   * From now on POST /prompt queues the prompt at once but answers only at release(), as a slow
   * link or a reverse proxy delays it. `received(n)` resolves once n prompts are held.
   */
  holdPromptAnswers(): { received: (count: number) => Promise<void>; release: () => void } {
    const held: (() => void)[] = [];
    this.heldAnswers = held;
    return {
      received: async (count) => {
        while (held.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
      },
      release: () => {
        if (this.heldAnswers === held) this.heldAnswers = undefined;
        for (const answer of held.splice(0)) answer();
      },
    };
  }

  /** The next run fails at sampler step `step` with this exception (an execution_error). */
  failAt(step: number, exception_type = 'RuntimeError', exception_message = 'mat1 and mat2 shapes cannot be multiplied'): void {
    this.failures.push({ step, exception_type, exception_message });
  }

  /** Closes every open socket; while `refuse`, new ones are turned away (the client must use /history). */
  dropSockets(refuse = true): void {
    this.refuseSockets = refuse;
    for (const ws of this.sockets.values()) ws.terminate();
    this.sockets.clear();
  }

  acceptSockets(): void {
    this.refuseSockets = false;
  }

  /** True while the prompt waits in the queue or runs. */
  isWaiting(promptId: string): boolean {
    return this.running?.id === promptId || this.pending.some((p) => p.id === promptId);
  }

  get openSockets(): number {
    return this.sockets.size;
  }

  /** Stops and starts again on the same port: the queue, the history and the running prompt are gone. */
  async restart(): Promise<void> {
    this.epoch++;
    this.dropSockets(false);
    this.pauses = [];
    this.waiting?.();
    this.pending = [];
    this.running = undefined;
    this.history.clear();
    await new Promise<void>((resolve) => {
      this.server!.closeAllConnections();
      this.server!.close(() => resolve());
    });
    await this.listen(this.port);
  }

  async stop(): Promise<void> {
    this.epoch++;
    for (const answer of this.heldAnswers?.splice(0) ?? []) answer();
    this.waiting?.();
    this.dropSockets(false);
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
    rmSync(this.workDir, { recursive: true, force: true });
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
  }

  private authorised(req: IncomingMessage): boolean {
    return !this.options.token || req.headers.authorization === `Bearer ${this.options.token}`;
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Node takes its own error listener off a socket it hands to 'upgrade': a client that resets
    // while we refuse it (a reconnect cut short by its close) would otherwise be an uncaught error.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws' || this.refuseSockets || !this.authorised(req)) {
      socket.end(`HTTP/1.1 ${this.refuseSockets ? '503 Service Unavailable' : '401 Unauthorized'}\r\nConnection: close\r\n\r\n`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const sid = url.searchParams.get('clientId') || `sid-${++this.counter}`;
      this.sockets.get(sid)?.terminate();
      this.sockets.set(sid, ws);
      ws.on('close', () => {
        if (this.sockets.get(sid) === ws) this.sockets.delete(sid);
      });
      this.send('status', { status: this.queueInfo(), sid }, sid);
    });
  }

  private send(type: string, data: Record<string, unknown>, sid?: string): void {
    const text = JSON.stringify({ type, data });
    const targets = sid === undefined ? [...this.sockets.values()] : [this.sockets.get(sid)].filter((ws): ws is WebSocket => ws !== undefined);
    for (const ws of targets) if (ws.readyState === ws.OPEN) ws.send(text);
  }

  private queueInfo() {
    return { exec_info: { queue_remaining: this.pending.length + (this.running ? 1 : 0) } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    let parsed: unknown;
    try {
      parsed = req.headers['content-type']?.includes('json') && body.length ? JSON.parse(body.toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, body: parsed });
    if (!this.authorised(req)) return json(401, { error: 'unauthorized' });
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /object_info') {
      const models = MODEL_FILES.filter((m) => !this.options.withoutModels?.includes(m));
      const types = nodeTypes(models);
      for (const name of this.options.withoutNodes ?? []) delete types[name];
      return json(200, types);
    }
    if (route === 'POST /upload/image') {
      const form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
      const file = form.get('image');
      if (!(file instanceof Blob)) return json(400, { error: 'no image' });
      const name = (file as File).name;
      const subfolder = String(form.get('subfolder') ?? '');
      this.inputs.set(subfolder ? `${subfolder}/${name}` : name, Buffer.from(await file.arrayBuffer()));
      return json(200, { name, subfolder, type: 'input' });
    }
    if (route === 'POST /prompt') return this.queuePrompt(parsed, json);
    if (route === 'GET /queue') {
      const item = (p: Prompt) => [p.number, p.id, p.nodes, { client_id: p.clientId }, []];
      return json(200, { queue_running: this.running ? [item(this.running)] : [], queue_pending: this.pending.map(item) });
    }
    if (route === 'POST /queue') {
      const ids = ((parsed as { delete?: string[] } | undefined)?.delete ?? []).map(String);
      this.pending = this.pending.filter((p) => !ids.includes(p.id));
      this.send('status', { status: this.queueInfo() });
      res.writeHead(200).end();
      return;
    }
    if (route === 'POST /interrupt') {
      const id = (parsed as { prompt_id?: string } | undefined)?.prompt_id;
      if (this.running && (!id || id === this.running.id)) this.interrupted = true;
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET' && url.pathname.startsWith('/history/')) {
      const id = decodeURIComponent(url.pathname.slice('/history/'.length));
      const entry = this.history.get(id);
      return json(200, entry ? { [id]: entry } : {});
    }
    if (route === 'GET /view') {
      const key = [url.searchParams.get('type'), url.searchParams.get('subfolder'), url.searchParams.get('filename')].join('/');
      const data = this.outputs.get(key);
      if (!data) return json(404, { error: 'not found' });
      res.writeHead(200, { 'content-type': key.endsWith('.mp4') ? 'video/mp4' : 'image/png' });
      res.end(data);
      return;
    }
    json(404, { error: `no route ${route}` });
  }

  private queuePrompt(body: unknown, json: (status: number, value: unknown) => void): void {
    const request = (body ?? {}) as { prompt?: Record<string, Node>; client_id?: string; prompt_id?: unknown };
    if (!request.prompt) return json(400, { error: { type: 'no_prompt', message: 'No prompt provided' }, node_errors: {} });
    const types = nodeTypes(MODEL_FILES.filter((m) => !this.options.withoutModels?.includes(m)));
    for (const name of this.options.withoutNodes ?? []) delete types[name];
    const nodeErrors: Record<string, { errors: { type: string; message: string; details: string }[]; class_type: string }> = {};
    const error = (id: string, node: Node, type: string, message: string, details: string) => {
      nodeErrors[id] ??= { errors: [], class_type: node.class_type };
      nodeErrors[id].errors.push({ type, message, details });
    };
    for (const [id, node] of Object.entries(request.prompt)) {
      const type = types[node.class_type];
      if (!type) {
        return json(400, {
          error: { type: 'invalid_prompt', message: `Cannot execute because node ${node.class_type} does not exist.`, details: `Node ID '#${id}'` },
          node_errors: {},
        });
      }
      for (const [name, spec] of Object.entries(type.input.required)) {
        if (!(name in node.inputs)) error(id, node, 'required_input_missing', 'Required input is missing', name);
        const value = node.inputs[name];
        if (Array.isArray(value) && typeof value[0] === 'string' && !request.prompt[value[0]]) error(id, node, 'bad_linked_input', 'Bad linked input', name);
        if (node.class_type === 'LoadImage' && name === 'image') {
          if (!this.inputs.has(String(value))) error(id, node, 'custom_validation_failed', 'Custom validation failed for node', `image - Invalid image file: ${String(value)}`);
        } else if (Array.isArray(spec) && Array.isArray(spec[0]) && typeof value === 'string' && !(spec[0] as string[]).includes(value)) {
          error(id, node, 'value_not_in_list', 'Value not in list', `${name}: '${value}' not in list`);
        }
      }
    }
    if (Object.keys(nodeErrors).length > 0) {
      return json(400, { error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '' }, node_errors: nodeErrors });
    }
    const id = request.prompt_id !== undefined ? String(request.prompt_id) : `p-${++this.counter}-${Math.random().toString(16).slice(2, 10)}`;
    const prompt: Prompt = { id, number: this.number++, nodes: request.prompt, clientId: request.client_id };
    this.prompts.set(prompt.id, prompt);
    this.pending.push(prompt);
    this.send('status', { status: this.queueInfo() });
    this.worker = this.worker.then(() => this.runNext());
    const answer = () => json(200, { prompt_id: prompt.id, number: prompt.number, node_errors: {} });
    if (this.heldAnswers) this.heldAnswers.push(answer);
    else answer();
  }

  private async runNext(): Promise<void> {
    const prompt = this.pending.shift();
    if (!prompt) return;
    const epoch = this.epoch;
    this.running = prompt;
    this.interrupted = false;
    const sid = prompt.clientId;
    const gone = () => this.epoch !== epoch;
    const messages: [string, Record<string, unknown>][] = [];
    const tell = (type: string, data: Record<string, unknown>) => {
      const full = { ...data, prompt_id: prompt.id, timestamp: Date.now() };
      if (type !== 'executing' && type !== 'progress' && type !== 'executed') messages.push([type, full]);
      this.send(type, full, sid);
    };
    this.send('status', { status: this.queueInfo() });
    tell('execution_start', {});
    tell('execution_cached', { nodes: [] });
    const outputs: HistoryEntry['outputs'] = {};
    const finish = (ok: boolean) => {
      if (gone()) return;
      this.history.set(prompt.id, {
        prompt: [prompt.number, prompt.id, prompt.nodes, { client_id: sid }, []],
        outputs,
        status: { status_str: ok ? 'success' : 'error', completed: ok, messages },
      });
      this.running = undefined;
      this.send('executing', { node: null, prompt_id: prompt.id }, sid);
      this.send('status', { status: this.queueInfo() });
    };
    try {
      for (const [id, node] of Object.entries(prompt.nodes)) {
        if (gone()) return;
        this.send('executing', { node: id, display_node: id, prompt_id: prompt.id }, sid);
        if (/sampler/i.test(node.class_type)) {
          const steps = Number(node.inputs.steps ?? 20);
          for (let step = 1; step <= steps; step++) {
            const pause = this.pauses.find((p) => p.step === step);
            if (pause) {
              this.pauses.splice(this.pauses.indexOf(pause), 1);
              this.waiting = pause.releaseNow;
              pause.reached();
              await pause.release;
              this.waiting = undefined;
              if (gone()) return;
            }
            if (this.interrupted) {
              tell('execution_interrupted', { node_id: id, node_type: node.class_type, executed: [] });
              return finish(false);
            }
            const failure = this.failures.find((f) => f.step === step);
            if (failure) {
              this.failures.splice(this.failures.indexOf(failure), 1);
              tell('execution_error', { node_id: id, node_type: node.class_type, executed: [], exception_type: failure.exception_type, exception_message: failure.exception_message, traceback: [] });
              return finish(false);
            }
            this.send('progress', { value: step, max: steps, prompt_id: prompt.id, node: id }, sid);
            await new Promise((resolve) => setTimeout(resolve, this.options.stepMs ?? 2));
          }
        }
        if (node.class_type === 'SaveImage' || node.class_type === 'SaveVideo') {
          const file = await this.makeOutput(prompt, node);
          if (gone()) return;
          outputs[id] = { images: [file], ...(node.class_type === 'SaveVideo' ? { animated: [true] } : {}) };
          this.send('executed', { node: id, display_node: id, output: outputs[id], prompt_id: prompt.id }, sid);
        }
      }
      tell('execution_success', {});
      finish(true);
      if (!gone()) this.rendered.push(prompt.id);
    } catch (error) {
      tell('execution_error', { node_id: '?', node_type: '?', exception_type: 'Exception', exception_message: String(error), traceback: [] });
      finish(false);
    }
  }

  /** The size, frame count, fps and first image of the prompt, from the nodes they are set on. */
  private facts(prompt: Prompt) {
    let width = 512;
    let height = 512;
    let frames = 9;
    let fps = 8;
    let image: Buffer | undefined;
    for (const node of Object.values(prompt.nodes)) {
      if (typeof node.inputs.width === 'number' && typeof node.inputs.height === 'number') {
        width = node.inputs.width;
        height = node.inputs.height;
      }
      if (typeof node.inputs.length === 'number') frames = node.inputs.length;
      if (node.class_type === 'CreateVideo' && typeof node.inputs.fps === 'number') fps = node.inputs.fps;
      if (node.class_type === 'LoadImage' && !image) image = this.inputs.get(String(node.inputs.image));
    }
    const scale = Math.min(1, (this.options.maxSide ?? 256) / Math.max(width, height));
    const even = (v: number) => Math.max(16, Math.round((v * scale) / 2) * 2);
    return { width: even(width), height: even(height), frames, fps, image };
  }

  private async makeOutput(prompt: Prompt, node: Node): Promise<OutputFile> {
    const { width, height, frames, fps, image } = this.facts(prompt);
    const base = image
      ? sharp(image).resize(width, height, { fit: 'cover' }).modulate({ hue: 40 })
      : sharp({ create: { width, height, channels: 3, background: '#7a5cff' } });
    const png = await base.png().toBuffer();
    const prefix = String(node.inputs.filename_prefix ?? 'ComfyUI');
    const subfolder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const stem = `${prefix.split('/').pop()}_${String(++this.counter).padStart(5, '0')}_`;
    if (node.class_type === 'SaveImage') {
      const file = { filename: `${stem}.png`, subfolder, type: 'output' };
      this.outputs.set(`output/${subfolder}/${file.filename}`, png);
      return file;
    }
    const still = path.join(this.workDir, `${stem}.png`);
    const mp4 = path.join(this.workDir, `${stem}.mp4`);
    await sharp(png).toFile(still);
    await runFfmpeg(['-y', '-loop', '1', '-i', still, '-vf', `zoompan=z='1+0.002*on':d=${frames}:s=${width}x${height}:fps=${fps}`, '-frames:v', String(frames), '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', mp4]);
    const file = { filename: `${stem}.mp4`, subfolder, type: 'output' };
    this.outputs.set(`output/${subfolder}/${file.filename}`, readFileSync(mp4));
    return file;
  }
}

function runFfmpeg(args: string[]): Promise<void> {
  const ffmpeg = resolveFfmpegPath();
  if (!ffmpeg) return Promise.reject(new Error('no ffmpeg'));
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });
}
