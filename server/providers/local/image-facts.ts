// Everything the built-in engine measures in one image: dominant colours, tone, pattern structure
// and repeat, texture. Decoding is sharp's; the measurements are the pure functions beside this file.
import { rgbPixelsToLab } from './color-space.js';
import { dominantColors, type ColorShare } from './dominant-colors.js';
import { patternStructure, type PatternStructure } from './pattern-structure.js';
import { decodeRaster, imageSize, type Raster } from './raster.js';
import { textureEnergy, type TextureFacts } from './texture-energy.js';
import { toneFacts, type ToneFacts } from './tone-facts.js';

export interface ImageFacts {
  /** Size of the original image. */
  width: number;
  height: number;
  colors: ColorShare[];
  tone: ToneFacts;
  /** Periods and feature sizes in pixels of the original image. */
  pattern: PatternStructure;
  texture: TextureFacts;
}

/** Long side the structure is measured at: a 4 px repeat of a 2000 px photo still shows. */
export const STRUCTURE_SIDE = 512;
/** Long side of the colour sample (nearest neighbour keeps the true colours). */
export const COLOR_SAMPLE_SIDE = 96;

/**
 * Facts from two decoded views of one image: a small nearest-neighbour sample for colours and a
 * larger view for structure. `scale` converts pixels of the structure view to original pixels.
 */
export function measureRasters(colorSample: Raster, structure: Raster, original: { width: number; height: number }): ImageFacts {
  const n = structure.width * structure.height;
  const { l, a, b } = rgbPixelsToLab(structure.data, n);
  const measured = patternStructure({ width: structure.width, height: structure.height, planes: [l, a, b] });
  const scale = original.width / structure.width;
  const toOriginal = (v: number | null) => (v === null ? null : v * scale);
  return {
    width: original.width,
    height: original.height,
    colors: dominantColors(colorSample),
    tone: toneFacts(l, a, b),
    pattern: {
      ...measured,
      periodX: toOriginal(measured.periodX),
      periodY: toOriginal(measured.periodY),
      featureSize: measured.featureSize * scale,
    },
    texture: textureEnergy(l, structure.width, structure.height),
  };
}

export async function measureImage(data: Buffer): Promise<ImageFacts> {
  const [original, colorSample, structure] = await Promise.all([
    imageSize(data),
    decodeRaster(data, COLOR_SAMPLE_SIDE, 'nearest'),
    decodeRaster(data, STRUCTURE_SIDE),
  ]);
  return measureRasters(colorSample, structure, original);
}
