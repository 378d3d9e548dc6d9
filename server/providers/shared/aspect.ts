// The workflow's aspect choices as the providers spell them. 9:16 and 16:9 rather than 3:4 / 4:3,
// because the candidate images become the first frames of the videos.
import type { Aspect } from '../capabilities.js';

export type FixedAspect = Exclude<Aspect, 'auto'>;

/** width:height as "w:h" (Gemini's imageConfig.aspectRatio, Kling's aspect_ratio). */
export const ASPECT_RATIO: Record<FixedAspect, string> = {
  square: '1:1',
  vertical: '9:16',
  horizontal: '16:9',
};

/** width / height */
export const ASPECT_VALUE: Record<FixedAspect, number> = {
  square: 1,
  vertical: 9 / 16,
  horizontal: 16 / 9,
};
