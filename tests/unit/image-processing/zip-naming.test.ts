import { describe, expect, it } from 'vitest';
import {
  baseZipName,
  sanitizeSegment,
  zipEntryNames,
} from '../../../src/lib/zip/zip-naming';

describe('zip entry names', () => {
  it('joins the original name with model and output extension', () => {
    expect(
      baseZipName({
        sourceName: 'fabric.jpg',
        modelName: 'up2x-conservative',
        scale: 2,
        mimeType: 'image/png',
      }),
    ).toBe('fabric_up2x-conservative.png');
  });

  it('appends the scale when the model name does not carry it', () => {
    expect(baseZipName({ sourceName: 'a.webp', modelName: 'custom-model', scale: 4 })).toBe(
      'a_custom-model_4x.webp',
    );
  });

  it('keeps unicode names intact (NFC) and cuts long ones by code point', () => {
    const decomposed = 'cafe\u0301 布料 😀.png';
    const name = baseZipName({
      sourceName: decomposed,
      modelName: 'up4x-denoise3x',
      scale: 4,
      mimeType: 'image/png',
    });
    expect(name).toBe('café 布料 😀_up4x-denoise3x.png');
    const long = baseZipName({
      sourceName: `${'😀'.repeat(150)}.png`,
      modelName: 'up2x-no-denoise',
      scale: 2,
    });
    expect(Array.from(long.split('_up2x')[0] ?? '')).toHaveLength(100);
    expect(long).not.toMatch(/\uD83D$/);
  });

  it('strips path separators, reserved characters and Windows device names', () => {
    expect(sanitizeSegment('a/b\\c:d*e?f"g<h>i|j\u0001')).toBe('a_b_c_d_e_f_g_h_i_j_');
    expect(baseZipName({ sourceName: '../../etc/passwd', modelName: 'up2x-conservative', scale: 2 })).toBe(
      'passwd_up2x-conservative.png',
    );
    expect(baseZipName({ sourceName: 'CON.jpg', modelName: 'up2x-conservative', scale: 2 })).toBe(
      'CON__up2x-conservative.jpg',
    );
    expect(baseZipName({ sourceName: '...', modelName: 'up2x-conservative', scale: 2 })).toBe(
      'image_up2x-conservative.png',
    );
  });

  it('gives the same source with different models different names', () => {
    const names = zipEntryNames([
      { sourceName: 'dress.jpg', modelName: 'up2x-conservative', scale: 2 },
      { sourceName: 'dress.jpg', modelName: 'up2x-denoise3x', scale: 2 },
      { sourceName: 'dress.jpg', modelName: 'up4x-denoise3x', scale: 4 },
    ]);
    expect(names).toEqual([
      'dress_up2x-conservative.jpg',
      'dress_up2x-denoise3x.jpg',
      'dress_up4x-denoise3x.jpg',
    ]);
  });

  it('numbers collisions case-insensitively and never reuses a name', () => {
    const names = zipEntryNames([
      { sourceName: 'A.png', modelName: 'up2x-conservative', scale: 2 },
      { sourceName: 'a.PNG', modelName: 'up2x-conservative', scale: 2 },
      { sourceName: 'a.png', modelName: 'up2x-conservative', scale: 2 },
      // Its natural name is what the second entry received.
      { sourceName: 'a_up2x-conservative_2.png', modelName: 'x', scale: 2 },
      { sourceName: 'a.png', modelName: 'up2x-conservative', scale: 2, mimeType: 'image/jpeg' },
    ]);
    expect(names.slice(0, 3)).toEqual([
      'A_up2x-conservative.png',
      'a_up2x-conservative_2.png',
      'a_up2x-conservative_3.png',
    ]);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    expect(names[4]).toBe('a_up2x-conservative.jpg');
  });

  it('never takes the manifest name', () => {
    const [name] = zipEntryNames([{ sourceName: 'manifest.csv', modelName: '', scale: 2 }]);
    expect(name).not.toBe('manifest.csv');
  });
});
