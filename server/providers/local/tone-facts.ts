// Lightness, contrast, colourfulness and warmth of an image, from its Lab planes: what a designer
// reads first ("light and soft", "dark and contrasty", "muted warm neutrals").

export type Level = 'low' | 'medium' | 'high';
export type Lightness = 'light' | 'medium' | 'dark';
export type Colourfulness = 'muted' | 'moderate' | 'vivid';
export type Warmth = 'warm' | 'neutral' | 'cool';

export interface ToneFacts {
  /** Mean L*, 0..100. */
  meanLightness: number;
  /** RMS contrast: standard deviation of L*. */
  contrastRms: number;
  /** Mean chroma (Lab units). */
  meanChroma: number;
  /** Mean of the warm axis (b* plus half of a*): positive = warm. */
  warmAxis: number;
  lightness: Lightness;
  contrast: Level;
  colourfulness: Colourfulness;
  warmth: Warmth;
}

export function toneFacts(l: Float32Array, a: Float32Array, b: Float32Array): ToneFacts {
  const n = l.length || 1;
  let sumL = 0;
  let sumChroma = 0;
  let sumWarm = 0;
  for (let i = 0; i < l.length; i++) {
    sumL += l[i] as number;
    sumChroma += Math.hypot(a[i] as number, b[i] as number);
    sumWarm += (b[i] as number) + 0.5 * (a[i] as number);
  }
  const meanLightness = sumL / n;
  let sq = 0;
  for (let i = 0; i < l.length; i++) sq += ((l[i] as number) - meanLightness) ** 2;
  const contrastRms = Math.sqrt(sq / n);
  const meanChroma = sumChroma / n;
  const warmAxis = sumWarm / n;
  return {
    meanLightness,
    contrastRms,
    meanChroma,
    warmAxis,
    lightness: meanLightness >= 68 ? 'light' : meanLightness >= 38 ? 'medium' : 'dark',
    contrast: contrastRms >= 20 ? 'high' : contrastRms >= 8 ? 'medium' : 'low',
    colourfulness: meanChroma >= 35 ? 'vivid' : meanChroma >= 14 ? 'moderate' : 'muted',
    warmth: warmAxis >= 7 ? 'warm' : warmAxis <= -5 ? 'cool' : 'neutral',
  };
}
