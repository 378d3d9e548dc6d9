// Sizes of the built-in engine's pictures and videos for the workflow's aspect choices.
import type { Aspect, VideoResolution } from '../capabilities.js';

export interface Size {
  width: number;
  height: number;
}

/** Long side of a candidate image: enough to judge a composition, quick to make. */
export const CANDIDATE_LONG_SIDE = 768;

const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));

/** Candidate image size: square 1:1, vertical 3:4, horizontal 4:3, auto = the source's own shape. */
export function imageCanvasSize(aspect: Aspect, source?: Size, longSide = CANDIDATE_LONG_SIDE): Size {
  switch (aspect) {
    case 'square':
      return { width: longSide, height: longSide };
    case 'vertical':
      return { width: even((longSide * 3) / 4), height: longSide };
    case 'horizontal':
      return { width: longSide, height: even((longSide * 3) / 4) };
    case 'auto': {
      if (!source || !source.width || !source.height) return { width: longSide, height: longSide };
      // Very long panoramas are cut to 1:2 at most.
      const ratio = Math.max(0.5, Math.min(2, source.width / source.height));
      return ratio >= 1
        ? { width: longSide, height: even(longSide / ratio) }
        : { width: even(longSide * ratio), height: longSide };
    }
  }
}

/** Short side of a video at each resolution choice (MiniMax's names). */
export const RESOLUTION_SHORT_SIDE: Record<VideoResolution, number> = { '512P': 512, '768P': 768, '1080P': 1080 };

/**
 * Video frame size: square 1:1, vertical 9:16, horizontal 16:9, auto = the first frame's own shape;
 * the short side from the resolution, optionally capped (tests render tiny videos).
 */
export function videoFrameSize(aspect: Aspect, resolution: VideoResolution, firstFrame: Size, maxShortSide?: number): Size {
  const short = Math.min(RESOLUTION_SHORT_SIDE[resolution], maxShortSide ?? Infinity);
  let ratio: number;
  switch (aspect) {
    case 'square':
      ratio = 1;
      break;
    case 'vertical':
      ratio = 9 / 16;
      break;
    case 'horizontal':
      ratio = 16 / 9;
      break;
    case 'auto':
      ratio = firstFrame.width && firstFrame.height ? Math.max(9 / 21, Math.min(21 / 9, firstFrame.width / firstFrame.height)) : 1;
      break;
  }
  return ratio >= 1 ? { width: even(short * ratio), height: even(short) } : { width: even(short), height: even(short / ratio) };
}
