// The manifest of a model's graphs for on-device upscaling, as the server serves it
// (GET /upscale-api/models/:name/graphs/manifest.json) and the browser's upscaler reads it.
import type { SeLevel } from './se-level.js';

export interface DeviceGraphManifest {
  name: string;
  hash: string;
  geometry: { scale: number; prepad: number; align: number };
  se: { index: number; channels: number }[];
  levels: SeLevel[];
  variants: Record<string, string>;
  inputs: Record<string, string[]>;
  /** bytes of each variant's file */
  sizes: Record<string, number>;
}
