// The built-in engine's videos: startVideo queues a render (one at a time, in this process) and
// returns its task id at once; pollVideo reports it. The startVideo signal stays attached to the
// render: aborting it (the job was cancelled) kills ffmpeg. A task id this process does not know
// (the server restarted) polls as failed 'unavailable', and the job runner starts the job again.
import type { VideoGenerator, VideoRequest, VideoTaskState } from '../capabilities.js';
import { ProviderError } from '../capabilities.js';
import { throwIfCancelled } from './cancellation.js';
import { resolveFfmpegPath } from './ffmpeg-path.js';
import { LOCAL_PREVIEW_MODEL, LOCAL_PROVIDER } from './model-name.js';
import { SerialQueue } from './render-queue.js';
import { renderVideo, type RenderedVideo } from './video-render.js';

export interface LocalVideoOptions {
  /** ffmpeg to run; default: the system's on PATH, else the bundled static build. */
  ffmpegPath?: string;
  /** Output frame rate (default 24). */
  fps?: number;
  /** Caps the video's short side below the requested resolution's (for tests). */
  maxShortSide?: number;
  /** Poll interval the job runner is told (default 1000 ms). */
  pollIntervalMs?: number;
  /** Videos waiting or rendering at most (default 20). */
  maxPending?: number;
  /** A render taking longer is stopped (default 10 minutes). */
  renderTimeoutMs?: number;
}

export interface LocalVideoGenerator extends VideoGenerator {
  /** The ffmpeg in use, or undefined when none was found (startVideo then fails 'unavailable'). */
  readonly ffmpegPath: string | undefined;
}

export function createLocalVideoGenerator(options: LocalVideoOptions = {}): LocalVideoGenerator {
  const ffmpegPath = resolveFfmpegPath(options.ffmpegPath);
  const queue = new SerialQueue<VideoRequest, RenderedVideo>(
    (request, signal) =>
      // startVideo queues nothing when there is no ffmpeg.
      renderVideo(request, { ffmpegPath: ffmpegPath ?? 'ffmpeg', fps: options.fps, maxShortSide: options.maxShortSide, timeoutMs: options.renderTimeoutMs }, signal),
    { maxPending: options.maxPending, idPrefix: 'local-video-' },
  );
  return {
    ffmpegPath,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    async startVideo(request: VideoRequest, signal: AbortSignal) {
      throwIfCancelled(signal);
      if (!ffmpegPath) {
        throw new ProviderError('unavailable', 'no ffmpeg found for the built-in engine (install ffmpeg or @ffmpeg-installer/ffmpeg)', {
          provider: LOCAL_PROVIDER,
        });
      }
      if (request.kind === 'first-last-frame' && !request.lastFrame) {
        throw new ProviderError('invalid_request', 'a first-last-frame video needs a last frame', { provider: LOCAL_PROVIDER });
      }
      return { taskId: queue.submit(request, signal), model: LOCAL_PREVIEW_MODEL };
    },
    async pollVideo(taskId: string, signal: AbortSignal): Promise<VideoTaskState> {
      throwIfCancelled(signal);
      const state = queue.state(taskId);
      if (!state) {
        return {
          state: 'failed',
          error: new ProviderError('unavailable', `the built-in engine has no video task ${taskId} (the server restarted); render it again`, {
            provider: LOCAL_PROVIDER,
          }),
        };
      }
      if (state.state !== 'succeeded') return state;
      const video = state.result;
      return {
        state: 'succeeded',
        video: {
          data: video.data,
          mimeType: video.mimeType,
          width: video.width,
          height: video.height,
          durationSeconds: video.durationSeconds,
        },
      };
    },
  };
}
