import { describe, expect, it } from 'vitest';
import { buildCatalog, defaultModel, describeModel, type Translate } from '../../../src/features/image-processing/model/model-catalog';

// English strings as the locale file has them; the test reads what the user reads.
const EN: Record<string, string> = {
  'imageProcessing.models.variant.conservative': 'Conservative',
  'imageProcessing.models.variant.no-denoise': 'No denoise',
  'imageProcessing.models.variant.denoise1x': 'Light denoise',
  'imageProcessing.models.variant.denoise2x': 'Medium denoise',
  'imageProcessing.models.variant.denoise3x': 'Strong denoise',
  'imageProcessing.models.description.conservative': 'Conservative mode: keeps detail, for high-quality images',
  'imageProcessing.models.description.no-denoise': 'No noise reduction',
  'imageProcessing.models.description.denoise1x': 'Light noise reduction',
  'imageProcessing.models.description.denoise2x': 'Medium noise reduction',
  'imageProcessing.models.description.denoise3x': 'Strong noise reduction',
  'imageProcessing.models.reason.conservative': 'Balance effect and quality',
  'imageProcessing.models.reason.denoise2x': 'Suitable for most images',
};
const t: Translate = (key, values) =>
  key === 'imageProcessing.models.displayName' ? `${values?.scale} · ${values?.variant}` : (EN[key] ?? key);

const NAMES = [
  'up4x-denoise3x',
  'up3x-conservative',
  'up2x-no-denoise',
  'up4x-conservative.pth',
  'up2x-denoise2x',
  'up2x-conservative',
  'up2x-denoise3x',
  'up2x-denoise1x',
  'up4x-no-denoise',
];

describe('model labels (spec §5)', () => {
  it('derives name, category, scale, variant, labels and recommendation from the name', () => {
    expect(describeModel({ name: 'up2x-conservative.pth' }, t)).toEqual({
      name: 'up2x-conservative',
      scale: 2,
      category: '2x',
      variant: 'conservative',
      displayName: '2x · Conservative',
      description: 'Conservative mode: keeps detail, for high-quality images',
      recommended: true,
      recommendReason: 'Balance effect and quality',
    });
    expect(describeModel({ name: 'up4x-denoise2x' }, t)).toMatchObject({
      category: '4x',
      scale: 4,
      displayName: '4x · Medium denoise',
      recommended: true,
      recommendReason: 'Suitable for most images',
    });
    expect(describeModel({ name: 'up2x-denoise1x' }, t)).toMatchObject({ displayName: '2x · Light denoise', recommended: false });
    expect(describeModel({ name: 'up2x-denoise3x' }, t).description).toBe('Strong noise reduction');
    expect(describeModel({ name: 'up2x-no-denoise' }, t).description).toBe('No noise reduction');
    expect(describeModel({ name: 'up2x-no-denoise' }, t).recommendReason).toBeUndefined();
    expect(describeModel({ name: 'up3x-denoise3x' }, t)).toMatchObject({ category: 'other', scale: 3, displayName: '3x · Strong denoise' });
  });

  it('uses the scale the service reports when it gives one', () => {
    expect(describeModel({ name: 'up2x-conservative', scale: 2 }, t).scale).toBe(2);
    expect(describeModel({ name: 'custom-model', scale: 3 }, t)).toMatchObject({ category: 'other', scale: 3, variant: 'unknown' });
  });

  it('sorts 2x first, then by category, then by display name', () => {
    const names = buildCatalog(NAMES.map((name) => ({ name })), t).map((m) => m.displayName);
    expect(names).toEqual([
      '2x · Conservative',
      '2x · Light denoise',
      '2x · Medium denoise',
      '2x · No denoise',
      '2x · Strong denoise',
      '4x · Conservative',
      '4x · No denoise',
      '4x · Strong denoise',
      '3x · Conservative',
    ]);
  });

  it('skips malformed entries and defaults to 2x conservative', () => {
    const models = buildCatalog([{ name: '' }, { name: 'up4x-denoise2x' }, { name: 'up2x-conservative' }], t);
    expect(models).toHaveLength(2);
    expect(defaultModel(models)?.name).toBe('up2x-conservative');
  });
});
