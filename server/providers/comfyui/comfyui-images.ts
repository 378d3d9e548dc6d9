// Candidate images, regeneration and workshop images on ComfyUI: the reference images are
// uploaded once (POST /upload/image), then one prompt per candidate is queued (POST /prompt) with
// its own seed and the candidate's composition in the prompt, two at a time so one waits while
// the other runs and other users of the box are not shut out. Each candidate is followed to its
// end (comfyui-run.ts) with its progress told, its image read from GET /view, and it succeeds or
// fails on its own (each-candidate.ts). Each prompt's id is chosen here and, for candidates, saved
// with its row before POST /prompt goes out: a cancel takes the prompts still waiting off the
// queue and interrupts the one running, answered or not, and the run after a restart follows the
// prompts the stopped one had queued instead of queueing them again.
import { randomUUID } from 'node:crypto';
import { ProviderError, type Aspect, type GeneratedImage, type ImageGenerator, type InputImage, type TaskProgress } from '../capabilities.js';
import sharp from 'sharp';
import { eachCandidate } from '../shared/each-candidate.js';
import { pickImageInputs, prepareImage, readGeneratedImage } from '../shared/images.js';
import { candidateImagePrompt, candidateShot } from '../shared/instructions.js';
import type { ComfyClient } from './comfyui-client.js';
import { PROVIDER } from './comfyui-errors.js';
import type { ComfyRuns } from './comfyui-run.js';
import { imageSize, randomSeed } from './comfyui-size.js';
import { fillWorkflow, type Fill, type Workflow } from './comfyui-workflow.js';

const CONCURRENT_CANDIDATES = 2;
/** Inputs as LoadImage reads them; larger ones are scaled down (the edit models work near 1 MP). */
const INPUT = { accepted: ['image/png', 'image/jpeg', 'image/webp'], maxSide: 2048, maxBytes: 20_000_000 } as const;

export interface ComfyImageContext {
  client: ComfyClient;
  runs: ComfyRuns;
}

export interface Uploaded {
  /** The name LoadImage takes. */
  name: string;
  width?: number;
  height?: number;
}

/** Uploads the images and answers their names (and sizes, for an 'auto' aspect), in order. */
export async function uploadImages(context: ComfyImageContext, images: InputImage[], signal: AbortSignal): Promise<Uploaded[]> {
  const uploaded: Uploaded[] = [];
  for (const image of images) {
    const prepared = await prepareImage(image, INPUT, PROVIDER);
    const meta = await sharp(prepared.data).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const name = await context.client.uploadImage(prepared.data, prepared.mimeType, signal);
    uploaded.push({ name, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height });
  }
  return uploaded;
}

export interface OneRun {
  workflow: Workflow;
  fill: Fill;
  signal: AbortSignal;
  onProgress?: (progress: TaskProgress) => void;
  /** Where this run's prompt id is kept (candidates): saved before it is queued, found again after a restart. */
  task?: OneTask;
}

export interface OneTask {
  /** The prompt an earlier, stopped run had queued. */
  started?: string;
  save(promptId: string): Promise<void>;
  /** After an abort: the prompt is left for the next run instead of taken off ComfyUI. */
  leftForNextRun(): boolean;
}

/**
 * Queues the filled workflow (or finds the prompt a stopped run had queued) and follows it to its
 * end; answers its first output's bytes. A cancel takes it off ComfyUI, whether or not ComfyUI
 * had answered the POST.
 */
export async function runForOneFile(context: ComfyImageContext, run: OneRun): Promise<Buffer> {
  const resumed = run.task?.started !== undefined && (await stillFollowed(context, run.task.started, run));
  let promptId = resumed ? run.task!.started! : randomUUID();
  let files;
  try {
    if (!resumed) {
      if (run.task) await run.task.save(promptId);
      const queued = await context.client.queuePrompt(fillWorkflow(run.workflow, run.fill), promptId, run.signal);
      // An older ComfyUI names the prompt itself.
      if (queued.promptId !== promptId) {
        promptId = queued.promptId;
        await run.task?.save(promptId);
      }
    }
    files = await context.runs.wait(promptId, run.workflow, run.signal, run.onProgress);
  } catch (error) {
    if (run.signal.aborted && !run.task?.leftForNextRun()) await context.runs.cancel(promptId, AbortSignal.timeout(10_000)).catch(() => undefined);
    throw error;
  }
  const first = files[0];
  if (!first) throw new ProviderError('bad_response', 'ComfyUI finished the workflow without an output file (is a Save node titled "output"?)', { provider: PROVIDER });
  return context.runs.download(first, run.signal);
}

/**
 * Whether a prompt a stopped run had queued is worth following: not when ComfyUI lost it
 * (restarted, or the POST never reached it), it ran out of memory, or it was interrupted (the
 * stopped run's time limit); a new prompt is queued then.
 */
async function stillFollowed(context: ComfyImageContext, promptId: string, run: OneRun): Promise<boolean> {
  const status = await context.runs.status(promptId, run.workflow, run.signal);
  if (status.state !== 'failed') return true;
  context.runs.forget(promptId);
  return status.error.kind !== 'unavailable' && status.error.kind !== 'cancelled';
}

export function createComfyImageGenerator(context: ComfyImageContext, workflow: Workflow): ImageGenerator {
  const model = `comfyui:${workflowName(workflow)}`;
  return {
    async generateImages(input, onImage) {
      const sources = pickImageInputs(input.sources);
      if (sources.length === 0) throw new ProviderError('invalid_request', 'the ComfyUI image workflow edits reference images, and none were given', { provider: PROVIDER });
      const uploaded = await uploadImages(context, sources, input.signal);
      const names = uploaded.map((u) => u.name);
      const size = imageSize(input.aspect, uploaded[0]);
      const { images, failures } = await eachCandidate(
        input.count,
        CONCURRENT_CANDIDATES,
        input.signal,
        async (index, signal) => {
          const tasks = input.tasks;
          const started = tasks?.started(index);
          const data = await runForOneFile(context, {
            workflow,
            fill: { images: referenceSlots(names), prompt: candidateImagePrompt(input, index), seed: randomSeed(), size },
            signal,
            onProgress: (progress) => input.onProgress?.(index, progress),
            ...(tasks
              ? { task: { ...(started ? { started } : {}), save: (promptId) => tasks.save(index, promptId), leftForNextRun: () => tasks.leftForNextRun() } }
              : {}),
          });
          return readGeneratedImage(data, PROVIDER, candidateShot(index, input.language).label);
        },
        onImage,
      );
      return { images, model, failures };
    },
  };
}

/** One image made from one source by a prompt (the workshop). */
export async function editOneImage(
  context: ComfyImageContext,
  workflow: Workflow,
  request: { source: InputImage; prompt: string; aspect: Aspect; signal: AbortSignal },
): Promise<GeneratedImage> {
  const [uploaded] = await uploadImages(context, [request.source], request.signal);
  const data = await runForOneFile(context, {
    workflow,
    fill: { images: referenceSlots([uploaded!.name]), prompt: request.prompt, seed: randomSeed(), size: imageSize(request.aspect, uploaded) },
    signal: request.signal,
  });
  return readGeneratedImage(data, PROVIDER);
}

function referenceSlots(names: string[]): Fill['images'] {
  return { image: names[0], ...(names[1] ? { 'image 2': names[1] } : {}), ...(names[2] ? { 'image 3': names[2] } : {}) };
}

export function workflowName(workflow: Workflow): string {
  return workflow.file.split(/[\\/]/).pop()!.replace(/\.json$/i, '');
}
