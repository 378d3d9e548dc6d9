// MiniMax (Hailuo) video over its documented HTTP API:
//   POST /v1/video_generation {model, prompt, prompt_optimizer, first_frame_image, last_frame_image?,
//        duration, resolution, aigc_watermark} → {task_id}
//   GET  /v1/query/video_generation?task_id= → {status: Preparing|Queueing|Processing|Success|Fail, file_id, video_width, video_height}
//   GET  /v1/files/retrieve?file_id= → {file: {download_url}} (valid for hours; the job runner downloads it)
// Frames go as data URLs, cropped to the asked aspect (the video takes the first frame's shape).
// Retrying is the job runner's: each call here is cheap to repeat and the task id is persisted.
import {
  ProviderError,
  type InputImage,
  type VideoGenerator,
  type VideoRequest,
  type VideoTaskState,
} from '../capabilities.js';
import { fetchJson } from '../shared/fetch-json.js';
import { frameForAspect, toDataUrl } from '../shared/images.js';
import { promptWithCamera } from './minimax-camera.js';
import { baseRespError, baseRespOf, checkMinimaxReply } from './minimax-errors.js';
import { checkCombination, durationsFor, modelFor } from './minimax-models.js';

const PROVIDER = 'minimax';

export interface MinimaxOptions {
  apiKey: string;
  /** Default https://api.minimax.io (mainland China accounts: https://api.minimaxi.com). */
  baseUrl: string;
  model: string;
  pollIntervalMs?: number;
  /** Limit for one HTTP request (the first frame upload is the largest). */
  timeoutMs?: number;
}

/**
 * Frames as MiniMax takes them: JPG, PNG or WebP under 20 MB, short side over 300 px, between 2:5
 * and 5:2. The frame travels as a base64 data URL, a third larger than the file: kept under 15 MB
 * so the URL itself stays under 20 MB too.
 */
const FRAME = { accepted: ['image/png', 'image/jpeg', 'image/webp'], maxSide: 2048, maxBytes: 15_000_000 } as const;
const MIN_SHORT_SIDE = 300;

export function createMinimaxVideoGenerator(options: MinimaxOptions): VideoGenerator {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const headers = { authorization: `Bearer ${options.apiKey}` };
  const call = async (method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: unknown) => {
    const reply = await fetchJson({ method, url: `${base}${path}`, headers, body, signal, timeoutMs, provider: PROVIDER });
    checkMinimaxReply(reply.status, reply.body);
    return reply.body as Record<string, unknown>;
  };
  const supportedDurations = durationsFor(options.model);

  return {
    pollIntervalMs: options.pollIntervalMs ?? 10_000,
    ...(supportedDurations ? { supportedDurations } : {}),

    async startVideo(request: VideoRequest, signal: AbortSignal) {
      const model = modelFor(request.kind, options.model);
      checkCombination(request, model);
      const prompt = promptWithCamera(request.prompt, request.camera);
      if (request.kind === 'first-last-frame' && !request.lastFrame) {
        throw new ProviderError('invalid_request', 'a first-last-frame video needs a last frame', { provider: PROVIDER });
      }
      const first = await frame(request.firstFrame, request);
      const last = request.kind === 'first-last-frame' && request.lastFrame ? await frame(request.lastFrame, request) : undefined;
      const answer = await call('POST', '/v1/video_generation', signal, {
        model,
        prompt,
        prompt_optimizer: request.promptOptimizer,
        first_frame_image: toDataUrl(first),
        ...(last ? { last_frame_image: toDataUrl(last) } : {}),
        duration: request.durationSeconds,
        resolution: request.resolution,
        aigc_watermark: request.watermark,
      });
      const taskId = answer.task_id;
      if (typeof taskId !== 'string' || taskId === '') {
        throw new ProviderError('bad_response', 'MiniMax accepted the video without a task id', { provider: PROVIDER });
      }
      return { taskId, model };
    },

    async pollVideo(taskId: string, signal: AbortSignal): Promise<VideoTaskState> {
      const reply = await fetchJson({
        method: 'GET',
        url: `${base}/v1/query/video_generation?task_id=${encodeURIComponent(taskId)}`,
        headers,
        signal,
        timeoutMs,
        provider: PROVIDER,
      });
      const status = (reply.body as { status?: unknown } | undefined)?.status;
      // A failed task carries its reason in base_resp: that is the task's failure, not the poll's.
      if (status === 'Fail' || status === 'Failed') {
        const reason = baseRespError(baseRespOf(reply.body));
        return { state: 'failed', error: reason ?? new ProviderError('unavailable', 'MiniMax reported the video task failed without a reason', { provider: PROVIDER }) };
      }
      checkMinimaxReply(reply.status, reply.body);
      const task = reply.body as { file_id?: unknown; video_width?: unknown; video_height?: unknown };
      switch (status) {
        case 'Preparing':
        case 'Queueing':
          return { state: 'queued' };
        case 'Processing':
          return { state: 'processing' };
        case 'Success': {
          const fileId = task.file_id === undefined || task.file_id === null ? '' : String(task.file_id);
          if (!fileId) throw new ProviderError('bad_response', 'MiniMax finished the video without a file id', { provider: PROVIDER });
          const file = (await call('GET', `/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`, signal)).file as { download_url?: unknown } | undefined;
          if (typeof file?.download_url !== 'string' || !file.download_url) {
            throw new ProviderError('bad_response', 'MiniMax returned the video file without a download URL', { provider: PROVIDER });
          }
          return {
            state: 'succeeded',
            fileId,
            video: {
              url: file.download_url,
              mimeType: 'video/mp4',
              ...(typeof task.video_width === 'number' ? { width: task.video_width } : {}),
              ...(typeof task.video_height === 'number' ? { height: task.video_height } : {}),
            },
          };
        }
        default:
          throw new ProviderError('bad_response', `MiniMax reported an unknown task status ${JSON.stringify(status)}`, { provider: PROVIDER });
      }
    },
  };
}

async function frame(image: InputImage, request: VideoRequest) {
  const prepared = await frameForAspect(image, request.aspect, FRAME, PROVIDER);
  const short = Math.min(prepared.width, prepared.height);
  const ratio = prepared.width / prepared.height;
  if (short <= MIN_SHORT_SIDE) {
    throw new ProviderError('invalid_request', `the ${image.role} image is ${short} px on its short side; MiniMax needs more than ${MIN_SHORT_SIDE}`, { provider: PROVIDER });
  }
  if (ratio < 2 / 5 || ratio > 5 / 2) {
    throw new ProviderError('invalid_request', `the ${image.role} image is too narrow or too wide for MiniMax (between 2:5 and 5:2)`, { provider: PROVIDER });
  }
  return prepared;
}
