/** Upload progress as a whole percentage, 0 when the total is unknown (spec §7). */
export function toPercent(loaded: number, total: number | undefined): number {
  if (!total || total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((loaded / total) * 100)));
}
