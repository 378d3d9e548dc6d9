// One size and shape rule for every image the product accepts: the generation and workshop
// uploads (checkUploadedImage) and the upscale service (admitImage) refuse and accept exactly the
// images the shared rule (storage/image-shape.ts) says, from the header, each in its own error
// shape.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/http/app-error.js';
import { admitImage } from '../../server/modules/upscale/image-admission.js';
import { UpscaleHttpError } from '../../server/modules/upscale/upscale-http-error.js';
import { MAX_ASPECT_RATIO, MIN_SIDE_PIXELS, imageShapeProblem } from '../../server/storage/image-shape.js';
import { checkUploadedImage } from '../../server/storage/upload-check.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } }).png().toBuffer();

const LIMITS = { maxBytes: 10 * 1024 * 1024, maxPixels: 50_000_000 };

/** The generation/workshop check's verdict: 'ok' or the message key. */
async function uploadVerdict(data: Buffer): Promise<string> {
  try {
    await checkUploadedImage(data, 'x.png', LIMITS);
    return 'ok';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.status).toBe(422);
    expect(error.options.vars?.name).toBe('x.png');
    return error.key;
  }
}

/** The upscale service's verdict: 'ok' or its error code. */
async function upscaleVerdict(data: Buffer): Promise<string> {
  try {
    await admitImage(data, LIMITS.maxPixels);
    return 'ok';
  } catch (error) {
    if (!(error instanceof UpscaleHttpError)) throw error;
    expect(error.status).toBe(422);
    return error.code;
  }
}

const CODE = { too_narrow: 'image_too_narrow', too_elongated: 'aspect_ratio_too_large' } as const;

describe('the shared image size and shape rule', () => {
  it('is at least 8 px a side and at most 32:1, checked on the pure numbers', () => {
    expect([MIN_SIDE_PIXELS, MAX_ASPECT_RATIO]).toEqual([8, 32]);
    expect(imageShapeProblem(8, 256)).toBeUndefined();
    expect(imageShapeProblem(256, 8)).toBeUndefined();
    expect(imageShapeProblem(8, 8)).toBeUndefined();
    expect(imageShapeProblem(8, 257)).toEqual({ problem: 'too_elongated', max: 32 });
    expect(imageShapeProblem(257, 8)).toEqual({ problem: 'too_elongated', max: 32 });
    expect(imageShapeProblem(7, 7)).toEqual({ problem: 'too_narrow', min: 8 });
    expect(imageShapeProblem(1, 40_000)).toEqual({ problem: 'too_narrow', min: 8 });
    expect(imageShapeProblem(0, 0)).toEqual({ problem: 'too_narrow', min: 8 });
    expect(imageShapeProblem(Number.NaN, 10)).toEqual({ problem: 'too_narrow', min: 8 });
  });

  it('is what the upload check and the upscale admission both apply, image by image', async () => {
    const sizes: [number, number][] = [
      [1, 40_000],
      [40_000, 1],
      [1, 1],
      [4, 4],
      [1, 64],
      [64, 1],
      [7, 40],
      [8, 8],
      [8, 256],
      [256, 8],
      [8, 257],
      [257, 8],
      [100, 3200],
      [100, 3201],
      [640, 480],
    ];
    const verdicts = [];
    for (const [w, h] of sizes) {
      const data = await png(w, h);
      const problem = imageShapeProblem(w, h);
      const expected = problem ? CODE[problem.problem] : 'ok';
      verdicts.push({ size: `${w}x${h}`, upload: await uploadVerdict(data), upscale: await upscaleVerdict(data), expected });
    }
    for (const v of verdicts) expect(v, v.size).toEqual({ size: v.size, upload: v.expected, upscale: v.expected, expected: v.expected });
    expect(verdicts.filter((v) => v.expected === 'ok').map((v) => v.size)).toEqual(['8x8', '8x256', '256x8', '100x3200', '640x480']);
  });
});
