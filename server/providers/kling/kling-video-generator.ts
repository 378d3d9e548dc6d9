// Kling video over its documented HTTP API, each request with a fresh-enough JWT:
//   POST /v1/videos/image2video {model_name, image, image_tail?, prompt, mode, duration} → data.task_id
//   GET  /v1/videos/image2video/{task_id} → data.task_status submitted|processing|succeed|failed,
//        data.task_result.videos[0].url
// Frames go as bare base64 (Kling refuses a data: prefix), JPEG or PNG, cropped to the asked
// aspect: image-to-video takes the frame's shape and has no aspect_ratio of its own. Resolution
// maps onto Kling's modes (std is 720p, pro 1080p); first-last-frame (image_tail) needs pro.
// Camera moves are written into the prompt in words (Kling's camera_control is model-specific).
// Retrying is the job runner's.
import {
  ProviderError,
  type CameraMove,
  type InputImage,
  type VideoGenerator,
  type VideoRequest,
  type VideoTaskState,
} from '../capabilities.js';
import { fetchJson } from '../shared/fetch-json.js';
import { frameForAspect } from '../shared/images.js';
import { checkKlingReply, taskFailure } from './kling-errors.js';
import { createKlingTokenSource } from './kling-token.js';

const PROVIDER = 'kling';
const MAX_PROMPT_CHARS = 2500;
/**
 * Frames as Kling takes them: JPG or PNG up to 10 MB, at least 300 px a side, between 1:2.5 and
 * 2.5:1. Sent as base64, a third larger than the file: kept under 7.5 MB so the text is under 10 MB too.
 */
const FRAME = { accepted: ['image/png', 'image/jpeg'], maxSide: 2048, maxBytes: 7_500_000 } as const;
const MIN_SIDE = 300;

/** What Kling makes: 5 or 10 s; std (720p) serves 768P, pro serves 1080P; first-last-frame is pro only. */
const SUPPORTED = {
  standard: { '768P': [5, 10], '1080P': [5, 10] },
  'first-last-frame': { '1080P': [5, 10] },
} as const satisfies VideoGenerator['supportedDurations'];

export interface KlingOptions {
  accessKey: string;
  secretKey: string;
  /** Default https://api-singapore.klingai.com (Kling's endpoint for servers outside China; formerly https://api.klingai.com). */
  baseUrl: string;
  model: string;
  pollIntervalMs?: number;
  timeoutMs?: number;
}

export function createKlingVideoGenerator(options: KlingOptions): VideoGenerator {
  const base = options.baseUrl.replace(/\/+$/, '');
  const token = createKlingTokenSource(options.accessKey, options.secretKey);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const call = async (method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: unknown) => {
    const reply = await fetchJson({
      method,
      url: `${base}${path}`,
      headers: { authorization: `Bearer ${await token()}` },
      body,
      signal,
      timeoutMs,
      provider: PROVIDER,
    });
    checkKlingReply(reply.status, reply.headers, reply.body);
    const data = (reply.body as { data?: unknown }).data;
    if (typeof data !== 'object' || data === null) throw new ProviderError('bad_response', 'Kling answered without data', { provider: PROVIDER });
    return data as Record<string, unknown>;
  };

  return {
    pollIntervalMs: options.pollIntervalMs ?? 10_000,
    supportedDurations: SUPPORTED,

    async startVideo(request: VideoRequest, signal: AbortSignal) {
      const mode = modeFor(request);
      const prompt = promptWithCamera(request.prompt, request.camera);
      if (request.kind === 'first-last-frame' && !request.lastFrame) {
        throw new ProviderError('invalid_request', 'a first-last-frame video needs a last frame', { provider: PROVIDER });
      }
      const image = await frame(request.firstFrame, request);
      const tail = request.kind === 'first-last-frame' && request.lastFrame ? await frame(request.lastFrame, request) : undefined;
      const data = await call('POST', '/v1/videos/image2video', signal, {
        model_name: options.model,
        image,
        ...(tail ? { image_tail: tail } : {}),
        prompt,
        mode,
        duration: String(request.durationSeconds),
      });
      const taskId = data.task_id;
      if (typeof taskId !== 'string' || taskId === '') throw new ProviderError('bad_response', 'Kling accepted the video without a task id', { provider: PROVIDER });
      return { taskId, model: options.model };
    },

    async pollVideo(taskId: string, signal: AbortSignal): Promise<VideoTaskState> {
      const data = await call('GET', `/v1/videos/image2video/${encodeURIComponent(taskId)}`, signal);
      switch (data.task_status) {
        case 'submitted':
          return { state: 'queued' };
        case 'processing':
          return { state: 'processing' };
        case 'failed':
          return { state: 'failed', error: taskFailure(data.task_status_msg) };
        case 'succeed': {
          const videos = (data.task_result as { videos?: unknown } | undefined)?.videos;
          const video = Array.isArray(videos) ? (videos[0] as { url?: unknown; duration?: unknown } | undefined) : undefined;
          if (typeof video?.url !== 'string' || !video.url) throw new ProviderError('bad_response', 'Kling finished the video without a URL', { provider: PROVIDER });
          const seconds = Number(video.duration);
          return {
            state: 'succeeded',
            video: { url: video.url, mimeType: 'video/mp4', ...(Number.isFinite(seconds) && seconds > 0 ? { durationSeconds: seconds } : {}) },
          };
        }
        default:
          throw new ProviderError('bad_response', `Kling reported an unknown task status ${JSON.stringify(data.task_status)}`, { provider: PROVIDER });
      }
    },
  };
}

function modeFor(request: VideoRequest): 'std' | 'pro' {
  const allowed: Partial<Record<string, readonly number[]>> = SUPPORTED[request.kind];
  if (!allowed[request.resolution]?.includes(request.durationSeconds)) {
    const offered = Object.entries(allowed).map(([resolution, seconds]) => `${resolution}: ${seconds?.join(' or ')} s`).join('; ');
    throw new ProviderError(
      'invalid_request',
      `Kling cannot make a ${request.kind} video of ${request.durationSeconds} s at ${request.resolution} (it offers ${offered})`,
      { provider: PROVIDER },
    );
  }
  return request.resolution === '1080P' ? 'pro' : 'std';
}

function promptWithCamera(prompt: string, camera: readonly CameraMove[]): string {
  const moves = [...new Set(camera)];
  const text = moves.length > 0 ? `${prompt.trim()} Camera: ${moves.map((m) => m.toLowerCase()).join(', ')}.` : prompt.trim();
  if (text.length > MAX_PROMPT_CHARS) {
    throw new ProviderError('invalid_request', `the video prompt is ${text.length} characters; Kling takes at most ${MAX_PROMPT_CHARS}`, { provider: PROVIDER });
  }
  return text;
}

async function frame(image: InputImage, request: VideoRequest): Promise<string> {
  const prepared = await frameForAspect(image, request.aspect, FRAME, PROVIDER);
  const ratio = prepared.width / prepared.height;
  if (Math.min(prepared.width, prepared.height) < MIN_SIDE) {
    throw new ProviderError('invalid_request', `the ${image.role} image is under ${MIN_SIDE} px on a side; Kling needs at least that`, { provider: PROVIDER });
  }
  if (ratio < 1 / 2.5 || ratio > 2.5) {
    throw new ProviderError('invalid_request', `the ${image.role} image is too narrow or too wide for Kling (between 1:2.5 and 2.5:1)`, { provider: PROVIDER });
  }
  return prepared.data.toString('base64');
}
