// Tile side for on-device upscaling, from the device's memory (navigator.deviceMemory, GB, rounded
// down by the browser and capped at 8). One tile's activations dominate the worker's memory: the
// widest map is 64 channels at twice the padded tile side in float32, a few times over inside
// onnxruntime, so a 96-px tile stays near 150 MB and a 192-px tile (the server's) near 500 MB.
export function tileSideFor(deviceMemoryGb: number | undefined): number {
  const gb = deviceMemoryGb ?? 4;
  if (gb <= 2) return 96;
  if (gb <= 4) return 128;
  return 192;
}

/**
 * Cached SE features a job may hold (the faster, exact strategy): an eighth of the device's memory,
 * so a 4 GB tablet keeps up to 512 MB (about 0.5 MP at 2x) and recomputes beyond that.
 */
export function cacheBudgetFor(deviceMemoryGb: number | undefined): number {
  return ((deviceMemoryGb ?? 4) * 1024 * 1024 * 1024) / 8;
}
