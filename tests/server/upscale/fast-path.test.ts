// The int8 fast path: QDQ rewriting of the converted graphs, and the engine's
// `fast` output against its exact output on a small image (speed is the benchmark's business).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { UpscaleEngine, UpscaleError } from '../../../server/upscale/engine.js';
import { FAST_VERSION } from '../../../server/upscale/fast-graphs.js';
import { activationParams, quantizeGraph } from '../../../server/upscale/quantize.js';
import { floatTensor } from '../../../server/upscale/onnx-proto.js';
import { models, texturedImage } from './helpers.js';

/**
 * What the all-int8 graphs hold against fp32 on this noisy textured image
 * (30.0 dB measured with VNNI; a margin for CPUs whose int8 kernels differ).
 * Real-CUGAN's per-channel int8 weights alone cost about 37 dB on a smoother
 * image: the benchmark's 45 dB target is not met, see the README.
 */
const MIN_PSNR = 28;

function psnr(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i]! - b[i]!) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255) / (se / a.length));
}

let engine: UpscaleEngine;
let image: Buffer;

beforeAll(async () => {
  engine = new UpscaleEngine({ modelsDir: await models(), maxTile: { 2: 48 } });
  image = await texturedImage(80, 64, 3);
}, 300_000);

afterAll(async () => {
  await engine?.close();
});

describe('int8 fast path', () => {
  it('asymmetric uint8 activation parameters cover the range and represent zero exactly', () => {
    const p = activationParams({ min: -1.5, max: 3 });
    expect(p.scale).toBeCloseTo(4.5 / 255);
    expect(p.zeroPoint * p.scale).toBeCloseTo(1.5, 1);
    expect(Number.isInteger(p.zeroPoint)).toBe(true);
    expect(activationParams({ min: 0.2, max: 1 }).zeroPoint).toBe(0);
  });

  it('rewrites calibrated spatial convolutions as QDQ groups and leaves the rest in fp32', () => {
    const w = floatTensor('c_w', [2, 1, 1, 1], Float32Array.of(0.5, -0.25));
    const v = floatTensor('v_w', [2, 1, 1, 1], Float32Array.of(1, 1));
    const graph = {
      name: 'g',
      nodes: [
        { opType: 'Conv', name: 'c', inputs: ['x', 'c_w'], outputs: ['y'] },
        { opType: 'Conv', name: 'v', inputs: ['m', 'v_w'], outputs: ['z'] },
      ],
      initializers: [w, v],
      inputs: [],
      outputs: [],
    };
    const range = { input: { min: 0, max: 1 }, output: { min: -1, max: 1 } };
    const q = quantizeGraph(graph, { c: { ...range, spatial: true }, v: { ...range, spatial: false } });
    expect(q.nodes.map((n) => n.opType)).toEqual([
      'QuantizeLinear',
      'DequantizeLinear',
      'DequantizeLinear',
      'Conv',
      'QuantizeLinear',
      'DequantizeLinear',
      'Conv',
    ]);
    expect(q.nodes.at(-2)!.outputs).toEqual(['y']);
    const wq = q.initializers.find((t) => t.name === 'c_wq')!;
    expect([...new Int8Array(wq.raw.buffer, wq.raw.byteOffset, 2)]).toEqual([127, -127]);
    expect(q.initializers.some((t) => t.name === 'c_w')).toBe(false);
    expect(q.initializers.some((t) => t.name === 'v_w')).toBe(true);
  });

  it('rejects an unknown precision', async () => {
    await expect(
      engine.upscale(image, { modelName: 'up2x-no-denoise', precision: 'half' as 'fast' }),
    ).rejects.toBeInstanceOf(UpscaleError);
  });

  it(`runs the int8 stage graphs (tiles sharing SE means) within ${MIN_PSNR} dB of the exact output`, async () => {
    const info = await engine.loadModel('up2x-no-denoise', 'fast');
    expect(path.basename(info.dir)).toBe(`fast-v${FAST_VERSION}`);
    const manifest = JSON.parse(await readFile(path.join(info.dir, 'manifest.json'), 'utf8')) as {
      calibration: Record<string, unknown>;
    };
    expect(Object.keys(manifest.calibration).length).toBeGreaterThan(10);
    for (const tileMode of [0, 2]) {
      const exact = await engine.upscale(image, { modelName: 'up2x-no-denoise', tileMode });
      const fast = await engine.upscale(image, { modelName: 'up2x-no-denoise', tileMode, precision: 'fast' });
      expect([fast.width, fast.height]).toEqual([160, 128]);
      expect(fast.tiles).toBeGreaterThan(1);
      const a = await sharp(exact.data).raw().toBuffer();
      const b = await sharp(fast.data).raw().toBuffer();
      const db = psnr(a, b);
      expect(db).not.toBe(Infinity); // not bit-identical: the int8 graphs ran
      expect(db).toBeGreaterThanOrEqual(MIN_PSNR);
    }
  }, 120_000);
});
