// Sizes and lengths as ComfyUI's image and video models take them: sides in multiples of 32
// (Flux and Wan 2.2 latents; Wan 2.1 takes 16), images about one megapixel, a video's short side
// by its resolution, and Wan's frame counts of 4n + 1.
import type { Aspect, VideoResolution } from '../capabilities.js';
import { ASPECT_VALUE } from '../shared/aspect.js';

const STEP = 32;
const IMAGE_PIXELS = 1024 * 1024;
const round = (value: number) => Math.max(STEP, Math.round(value / STEP) * STEP);

/** The output size of an image: the asked aspect, or the first reference image's shape for 'auto'. */
export function imageSize(aspect: Aspect, source?: { width?: number; height?: number }): { width: number; height: number } {
  let ratio = aspect === 'auto' ? (source?.width && source.height ? source.width / source.height : 1) : ASPECT_VALUE[aspect];
  ratio = Math.min(2.5, Math.max(0.4, ratio));
  const width = Math.sqrt(IMAGE_PIXELS * ratio);
  return { width: round(width), height: round(width / ratio) };
}

const SHORT_SIDE: Record<VideoResolution, number> = { '512P': 480, '768P': 704, '1080P': 1088 };

/** The video's size: the frame's shape (already cropped to the aspect) at the resolution's short side. */
export function videoSize(resolution: VideoResolution, frame: { width: number; height: number }): { width: number; height: number } {
  const short = SHORT_SIDE[resolution];
  const ratio = frame.width / frame.height;
  return ratio >= 1 ? { width: round(short * ratio), height: short } : { width: short, height: round(short / ratio) };
}

/** Frames for `seconds` at `fps`, as 4n + 1. */
export function frameCount(seconds: number, fps: number): number {
  return Math.max(5, Math.round((seconds * fps) / 4) * 4 + 1);
}

/** A fresh seed in ComfyUI's range (non-negative, within a JavaScript safe integer). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 48);
}
