// Shared fixtures for the upscale suites: models, reference binary, test images.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

import { defaultModelsDir, ensureModels, referenceBinary, weightsDir } from '../../../server/upscale/model-store.js';

const run = promisify(execFile);

export async function models(): Promise<string> {
  return ensureModels(defaultModelsDir());
}

/** Deterministic textured RGB image (gradients, stripes and pseudo-noise). */
export async function texturedImage(width: number, height: number, seed = 1): Promise<Buffer> {
  const px = Buffer.alloc(width * height * 3);
  let s = seed;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 3; c++) {
        s = (s * 1103515245 + 12345) >>> 0;
        const v = 128 + 60 * Math.sin(x * 0.37 + c) + 40 * Math.cos(y * 0.21 - c) + ((s >>> 16) % 41) - 20;
        px[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
  return sharp(px, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

export async function rawRgb(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export async function reference(dir: string, image: Buffer, scale: number, noise: number, tile = 400): Promise<Buffer> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'loom-ref-'));
  try {
    await writeFile(path.join(tmp, 'in.png'), image);
    await run(referenceBinary(dir), ['-g', '-1', '-s', String(scale), '-n', String(noise), '-t', String(tile), '-m', weightsDir(dir), '-i', path.join(tmp, 'in.png'), '-o', path.join(tmp, 'out.png')]);
    return await readFile(path.join(tmp, 'out.png'));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export function diff(a: Buffer, b: Buffer): { max: number; mean: number } {
  if (a.length !== b.length) throw new Error(`size mismatch ${a.length} vs ${b.length}`);
  let max = 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (d > max) max = d;
    sum += d;
  }
  return { max, mean: sum / a.length };
}
