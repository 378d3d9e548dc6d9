// Videos on ComfyUI: image-to-video and first-last-frame, each with its own workflow. planTask
// chooses the prompt id; the task id is "<kind>:<prompt_id>", saved by the job before startVideo
// crops the frames to the asked aspect, uploads them, fills the workflow (prompt with the camera
// moves in words, seed, size from the resolution, frames from the duration at the workflow's own
// fps) and queues it under that id. So a cancel finds the prompt and a restarted server follows
// the same one (from the history, or the socket: our client id is stable), even when the answer
// to POST /prompt never came.
// pollVideo tells the queue position and the sampler's steps; cancelVideo takes the prompt off
// ComfyUI (queue deletion, or an interrupt while it runs).
import { randomUUID } from 'node:crypto';
import { ProviderError, type InputImage, type VideoGenerator, type VideoKind, type VideoRequest, type VideoTaskState } from '../capabilities.js';
import { frameForAspect } from '../shared/images.js';
import type { ComfyClient } from './comfyui-client.js';
import { PROVIDER } from './comfyui-errors.js';
import { workflowName } from './comfyui-images.js';
import type { ComfyRuns } from './comfyui-run.js';
import { frameCount, randomSeed, videoSize } from './comfyui-size.js';
import { fillWorkflow, readNumber, type Workflow } from './comfyui-workflow.js';

const FRAME = { accepted: ['image/png', 'image/jpeg', 'image/webp'], maxSide: 2048, maxBytes: 20_000_000 } as const;
const KIND_TAG: Record<VideoKind, string> = { standard: 'i2v', 'first-last-frame': 'flf' };
/** The frame rate a workflow without an "fps" node is taken to have (Wan 2.1's). */
const DEFAULT_FPS = 16;

export interface ComfyVideoOptions {
  client: ComfyClient;
  runs: ComfyRuns;
  workflows: Record<VideoKind, Workflow>;
  pollIntervalMs?: number;
}

export function createComfyVideoGenerator(options: ComfyVideoOptions): VideoGenerator {
  const { client, runs, workflows } = options;
  const parse = (taskId: string): { promptId: string; workflow: Workflow } => {
    const [tag, ...rest] = taskId.split(':');
    const kind = (Object.keys(KIND_TAG) as VideoKind[]).find((k) => KIND_TAG[k] === tag);
    if (!kind || rest.length === 0) throw new ProviderError('bad_response', `not a ComfyUI task id: ${taskId}`, { provider: PROVIDER });
    return { promptId: rest.join(':'), workflow: workflows[kind] };
  };
  const upload = async (image: InputImage, request: VideoRequest, signal: AbortSignal) => {
    const frame = await frameForAspect(image, request.aspect, FRAME, PROVIDER);
    return { frame, name: await client.uploadImage(frame.data, frame.mimeType, signal) };
  };

  const taskIdOf = (kind: VideoKind, promptId: string) => `${KIND_TAG[kind]}:${promptId}`;
  const modelOf = (kind: VideoKind) => `comfyui:${workflowName(workflows[kind])}`;

  return {
    pollIntervalMs: options.pollIntervalMs ?? 2000,

    planTask: (kind) => ({ taskId: taskIdOf(kind, randomUUID()), model: modelOf(kind) }),

    async startVideo(request, signal, plannedTaskId) {
      const workflow = workflows[request.kind];
      if (request.kind === 'first-last-frame' && !request.lastFrame) {
        throw new ProviderError('invalid_request', 'a first-last-frame video needs a last frame', { provider: PROVIDER });
      }
      const first = await upload(request.firstFrame, request, signal);
      const last = request.kind === 'first-last-frame' && request.lastFrame ? await upload(request.lastFrame, request, signal) : undefined;
      const fps = readNumber(workflow, 'fps') ?? DEFAULT_FPS;
      const camera = request.camera.length > 0 ? ` Camera: ${request.camera.map((m) => m.toLowerCase()).join(', ')}.` : '';
      const prompt = fillWorkflow(workflow, {
        images: { 'first frame': first.name, ...(last ? { 'last frame': last.name } : {}) },
        prompt: `${request.prompt.trim()}${camera}`,
        seed: randomSeed(),
        size: videoSize(request.resolution, first.frame),
        frames: frameCount(request.durationSeconds, fps),
      });
      const planned = plannedTaskId ? parse(plannedTaskId).promptId : randomUUID();
      // Followed from now, so no progress message is missed before the first poll.
      runs.socket.watch(planned);
      let promptId: string;
      try {
        ({ promptId } = await client.queuePrompt(prompt, planned, signal));
      } catch (error) {
        runs.forget(planned);
        throw error;
      }
      // An older ComfyUI names the prompt itself: that id is the task's.
      runs.socket.watch(promptId);
      if (promptId !== planned) runs.forget(planned);
      return { taskId: taskIdOf(request.kind, promptId), model: modelOf(request.kind) };
    },

    async pollVideo(taskId, signal): Promise<VideoTaskState> {
      const { promptId, workflow } = parse(taskId);
      const status = await runs.status(promptId, workflow, signal);
      switch (status.state) {
        case 'queued':
          return { state: 'queued', progress: status.progress };
        case 'running':
          return { state: 'processing', progress: status.progress };
        case 'failed':
          runs.forget(promptId);
          return { state: 'failed', error: status.error };
        case 'done': {
          const file = status.files[0];
          if (!file) {
            runs.forget(promptId);
            return { state: 'failed', error: new ProviderError('bad_response', 'ComfyUI finished the video workflow without an output file', { provider: PROVIDER }) };
          }
          const data = await runs.download(file, signal);
          runs.forget(promptId);
          return { state: 'succeeded', video: { data, mimeType: videoType(file.filename) } };
        }
      }
    },

    async cancelVideo(taskId, signal) {
      const { promptId } = parse(taskId);
      await runs.cancel(promptId, signal);
    },
  };
}

function videoType(filename: string): string {
  const extension = filename.split('.').pop()?.toLowerCase();
  if (extension === 'webm') return 'video/webm';
  if (extension === 'gif') return 'image/gif';
  if (extension === 'webp') return 'image/webp';
  return 'video/mp4';
}
