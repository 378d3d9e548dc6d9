// The pending file's noise verdict: what survives in its IndexedDB record and which offered model
// it turns into at the scale the user picked.
import { describe, expect, it } from 'vitest';
import { suggestFromNoise } from '../../../src/features/image-processing/model/noise-suggestion';
import {
  readStoredNoise,
  toStoredNoise,
  type StoredNoise,
} from '../../../src/lib/noise/stored-noise';
import { estimateNoise } from '../../../src/lib/noise/noise-estimate';

const ALL = ['conservative', 'no-denoise', 'denoise1x', 'denoise2x', 'denoise3x'];
/** What the service offers: every variant at 2x; 3x and 4x lack denoise1x and denoise2x. */
const OFFERED = [
  ...ALL.map((v) => ({ name: `up2x-${v}` })),
  ...['conservative', 'no-denoise', 'denoise3x'].flatMap((v) => [
    { name: `up3x-${v}` },
    { name: `up4x-${v}` },
  ]),
];

const noise = (patch: Partial<StoredNoise>): StoredNoise => ({
  blockiness: 1.02,
  noiseSigma: 0.8,
  level: 'conservative',
  reason: 'clean',
  ...patch,
});

describe('stored noise', () => {
  it('keeps the figures and the verdict of an estimate, not its i18n key', () => {
    const flat = { width: 16, height: 16, data: new Uint8Array(16 * 16 * 4).fill(128) };
    const stored = toStoredNoise(estimateNoise(flat));
    expect(stored).toEqual({ blockiness: 1, noiseSigma: 0, level: 'conservative', reason: 'clean' });
    expect(readStoredNoise(structuredClone(stored))).toEqual(stored);
  });

  it('ignores a record that is missing, partial or from another vocabulary', () => {
    expect(readStoredNoise(undefined)).toBeUndefined();
    expect(readStoredNoise('denoise3x')).toBeUndefined();
    expect(readStoredNoise({ ...noise({}), level: 'denoise9x' })).toBeUndefined();
    expect(readStoredNoise({ ...noise({}), reason: 'blurry' })).toBeUndefined();
    expect(readStoredNoise({ ...noise({}), noiseSigma: Number.NaN })).toBeUndefined();
    expect(readStoredNoise({ level: 'denoise3x', reason: 'heavyJpeg' })).toBeUndefined();
  });
});

describe('suggestion from noise', () => {
  it('turns a heavy JPEG into strong denoise and a clean image into conservative, with the reason', () => {
    const heavy = suggestFromNoise(
      noise({ blockiness: 1.734, noiseSigma: 3.21, level: 'denoise3x', reason: 'heavyJpeg' }),
      2,
      OFFERED,
    );
    expect(heavy).toEqual({
      modelName: 'up2x-denoise3x',
      reasonKey: 'imageProcessing.noise.reason.heavyJpeg',
      reasonValues: { blockiness: '1.73', noise: '3.2' },
    });
    expect(suggestFromNoise(noise({}), 2, OFFERED)?.modelName).toBe('up2x-conservative');
  });

  it('stays within the models of the chosen scale', () => {
    const medium = noise({ level: 'denoise2x', reason: 'moderate' });
    expect(suggestFromNoise(medium, 2, OFFERED)?.modelName).toBe('up2x-denoise2x');
    expect(suggestFromNoise(medium, 4, OFFERED)?.modelName).toBe('up4x-denoise3x');
    expect(suggestFromNoise(noise({ level: 'denoise1x', reason: 'light' }), 3, OFFERED)?.modelName).toBe(
      'up3x-conservative',
    );
  });

  it('suggests nothing when the service offers nothing at that scale', () => {
    expect(suggestFromNoise(noise({}), 2, [])).toBeUndefined();
    expect(suggestFromNoise(noise({}), 8, OFFERED)).toBeUndefined();
  });
});
