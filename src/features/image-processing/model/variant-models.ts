// The Real-CUGAN variants the preview compares: every model of the chosen scale, in the order of
// increasing denoise strength, so the tiles read left to right from "keep detail" to "smooth".

export interface VariantModel {
  name: string;
  displayName: string;
  scale?: number;
  recommended?: boolean;
}

const ORDER = ['conservative', 'no-denoise', 'denoise1x', 'denoise2x', 'denoise3x'];

function rank(name: string): number {
  const index = ORDER.findIndex((variant) => name.endsWith(`-${variant}`));
  return index === -1 ? ORDER.length : index;
}

export function variantsForScale<T extends VariantModel>(models: readonly T[], scale: number): T[] {
  return models
    .filter(
      (model) => model.name.includes(`up${scale}x`) || (model.scale === scale && !/up\d+x/.test(model.name)),
    )
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}
