// The built-in offline engine, `local`: every capability of the generation service with real,
// deterministic output made from the designer's own inputs, no keys and no network. Every
// result's model name says it is a local preview.
import type { ProviderCapabilities } from '../capabilities.js';
import { createLocalAnalyser } from './analyser.js';
import { createLocalEnhancer } from './enhancer.js';
import type { Upscale } from './image-tone-correction.js';
import { createLocalImageGenerator } from './image-generator.js';
import { createLocalPromptWriter } from './prompt-writer.js';
import { createLocalVideoGenerator, type LocalVideoGenerator } from './video-generator.js';

export { LOCAL_PREVIEW_MODEL, LOCAL_PROVIDER } from './model-name.js';
export { readMp4Facts, videoTrack, type Mp4Facts, type Mp4Track } from './mp4-facts.js';
export { resolveFfmpegPath } from './ffmpeg-path.js';

export interface LocalProviderOptions {
  /** ffmpeg for the videos; default: the system's on PATH, else @ffmpeg-installer/ffmpeg's. */
  ffmpegPath?: string;
  /** 2x image enlargement for the workshop (the Real-CUGAN engine); default lanczos x2. */
  upscale?: Upscale;
  /** Told when that enlargement failed and lanczos stood in. */
  onUpscaleFallback?: (error: unknown) => void;
  /** Pause between streamed analysis pieces in ms (default 60; 0 in tests). */
  textPauseMs?: number;
  /** Video rendering knobs (tests: a low short-side cap and frame rate, a fast poll). */
  video?: {
    fps?: number;
    maxShortSide?: number;
    pollIntervalMs?: number;
    maxPending?: number;
    renderTimeoutMs?: number;
  };
}

export interface LocalProvider extends ProviderCapabilities {
  analyser: NonNullable<ProviderCapabilities['analyser']>;
  imageGenerator: NonNullable<ProviderCapabilities['imageGenerator']>;
  promptWriter: NonNullable<ProviderCapabilities['promptWriter']>;
  videoGenerator: LocalVideoGenerator;
  enhancer: NonNullable<ProviderCapabilities['enhancer']>;
}

export function createLocalProvider(options: LocalProviderOptions = {}): LocalProvider {
  return {
    analyser: createLocalAnalyser({ pauseMs: options.textPauseMs }),
    imageGenerator: createLocalImageGenerator(),
    promptWriter: createLocalPromptWriter(),
    videoGenerator: createLocalVideoGenerator({ ...options.video, ffmpegPath: options.ffmpegPath }),
    enhancer: createLocalEnhancer({ upscale: options.upscale, onUpscaleFallback: options.onUpscaleFallback }),
  };
}
