// Spec §5/§9's video workflow limits: at most 6 model images, 6 pattern images and 10 in all. The
// server refuses a form past them; the PWA keeps what fits and says how many could not be added.
export const MAX_MODEL_IMAGES = 6;
export const MAX_PATTERN_IMAGES = 6;
export const MAX_IMAGES_TOTAL = 10;
