// Real-CUGAN's alpha: how strongly the second U-Net's restoration is applied (larger is gentler and
// softer, smaller stronger and sharper). The specification fixes only its default, 1 (spec §3/§9),
// not a range; this one range is the model's useful one (notes/realcugan.md: 0.75–1.3, where 1 is
// the model as trained). The PWA's slider offers it and clamps stored settings to it; the upscale
// service and the engine refuse anything outside it.
export const DEFAULT_ALPHA = 1;
export const ALPHA_RANGE = { min: 0.75, max: 1.3, step: 0.05 } as const;

export function isAlphaInRange(alpha: number): boolean {
  return Number.isFinite(alpha) && alpha >= ALPHA_RANGE.min && alpha <= ALPHA_RANGE.max;
}
