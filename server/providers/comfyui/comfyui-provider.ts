// The ComfyUI adapter: candidate images, regeneration, workshop images and videos on a team's own
// GPU machine, over ComfyUI's own HTTP and WebSocket protocol. Each capability runs a workflow
// file (comfyui-workflow.ts); the files are read and checked when the server starts, and checked
// against the server's node types and models by checkSetup (run once the app is ready, so a
// ComfyUI box that is still booting does not stop Loom Studio).
import { hostname } from 'node:os';
import { createHash } from 'node:crypto';
import type { Enhancer, ImageGenerator, ProviderSetupCheck, VideoGenerator } from '../capabilities.js';
import { ComfyClient } from './comfyui-client.js';
import { workflowProblems } from './comfyui-check.js';
import { createComfyEnhancer } from './comfyui-enhancer.js';
import { PROVIDER } from './comfyui-errors.js';
import { createComfyImageGenerator } from './comfyui-images.js';
import { ComfyRuns, DEFAULT_TIMING, type RunTiming } from './comfyui-run.js';
import { ComfySocket } from './comfyui-socket.js';
import { createComfyVideoGenerator } from './comfyui-video.js';
import { loadWorkflow, type Workflow } from './comfyui-workflow.js';

export interface ComfyWorkflowFiles {
  images: string;
  enhance: string;
  video: string;
  videoFirstLast: string;
}

export interface ComfyOptions {
  baseUrl: string;
  /** Bearer token for a reverse proxy in front of ComfyUI. */
  token?: string;
  workflows: ComfyWorkflowFiles;
  /** Default: stable per machine and ComfyUI address, so a restarted server gets its prompts' progress again. */
  clientId?: string;
  /** The workshop's text items (ComfyUI makes images only). */
  textEnhancer?: Enhancer;
  timing?: RunTiming;
  pollIntervalMs?: number;
  timeoutMs?: number;
  reconnectMs?: number;
}

export interface ComfyProvider {
  imageGenerator: ImageGenerator;
  videoGenerator: VideoGenerator;
  enhancer: Enhancer;
  checkSetup(): Promise<ProviderSetupCheck>;
  /** Closes the WebSocket (tests, shutdown). */
  close(): void;
}

export function defaultClientId(baseUrl: string): string {
  return `loom-studio-${createHash('sha256').update(`${hostname()} ${baseUrl}`).digest('hex').slice(0, 16)}`;
}

export function createComfyProvider(options: ComfyOptions): ComfyProvider {
  const client = new ComfyClient({
    baseUrl: options.baseUrl,
    ...(options.token ? { token: options.token } : {}),
    clientId: options.clientId ?? defaultClientId(options.baseUrl),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const socket = new ComfySocket(client, { ...(options.reconnectMs ? { reconnectMs: options.reconnectMs } : {}) });
  const runs = new ComfyRuns(client, socket, options.timing ?? DEFAULT_TIMING);
  const workflows = {
    images: loadWorkflow(options.workflows.images, 'images'),
    enhance: loadWorkflow(options.workflows.enhance, 'images'),
    video: loadWorkflow(options.workflows.video, 'video'),
    videoFirstLast: loadWorkflow(options.workflows.videoFirstLast, 'video-first-last-frame'),
  };
  const context = { client, runs };
  return {
    imageGenerator: createComfyImageGenerator(context, workflows.images),
    enhancer: createComfyEnhancer(context, workflows.enhance, options.textEnhancer),
    videoGenerator: createComfyVideoGenerator({
      client,
      runs,
      workflows: { standard: workflows.video, 'first-last-frame': workflows.videoFirstLast },
      ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
    }),
    async checkSetup() {
      const checkedAt = new Date().toISOString();
      const unique = new Map<string, Workflow>();
      for (const workflow of Object.values(workflows)) unique.set(workflow.file, workflow);
      try {
        const info = await client.objectInfo(AbortSignal.timeout(30_000));
        const problems = [...unique.values()].flatMap((workflow) => workflowProblems(workflow, info).map((p) => `${baseName(workflow.file)}: ${p}`));
        return { provider: PROVIDER, reachable: true, problems, checkedAt };
      } catch (error) {
        return { provider: PROVIDER, reachable: false, problems: [`ComfyUI at ${client.base} could not be asked for its nodes: ${(error as Error).message}`], checkedAt };
      }
    },
    close: () => socket.close(),
  };
}

const baseName = (file: string) => file.split(/[\\/]/).pop() ?? file;
