// The "fast" (int8) graph set of a converted model: activation ranges
// calibrated by running the fp32 graph on synthetic images, then every variant
// rewritten with QDQ nodes (quantize.ts). Kept beside the exact graphs, in a
// folder named by FAST_VERSION, so it is made once per model.

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import * as ort from 'onnxruntime-node';

import { type ConvertedModel, variantSpecs } from './converter.js';
import { findSeBlocks } from './ncnn-analysis.js';
import { parseNcnnParam } from './ncnn-param.js';
import { ALPHA_INPUT, IMAGE_INPUT, buildOnnxGraph, loadNcnnWeights } from './graph-builder.js';
import { type OnnxGraph, encodeModel } from './onnx-proto.js';
import {
  type Calibration,
  type ValueRange,
  calibrationGraph,
  calibrationTaps,
  quantizeGraph,
} from './quantize.js';

/** Bump when the calibration or the quantized graphs change. */
export const FAST_VERSION = 1;

interface FastManifest {
  version: number;
  variants: Record<string, string>;
  calibration: Calibration;
}

/** Side of the square calibration images (a multiple of every model's alignment). */
const CALIBRATION_SIDE = 96;

/**
 * Synthetic calibration images, RGB in [0, 1], planar: a smooth gradient,
 * hard stripes, uniform noise and a photo-like mix of soft shapes, texture and
 * grain, so the ranges cover flat areas, edges and fine detail.
 */
export function calibrationImages(side = CALIBRATION_SIDE): Float32Array[] {
  const kinds = 4;
  const images: Float32Array[] = [];
  for (let kind = 0; kind < kinds; kind++) {
    const a = new Float32Array(3 * side * side);
    let s = 7 + kind;
    for (let c = 0; c < 3; c++)
      for (let y = 0; y < side; y++)
        for (let x = 0; x < side; x++) {
          s = (s * 1103515245 + 12345) >>> 0;
          const noise = ((s >>> 16) % 1000) / 1000;
          let v: number;
          if (kind === 0) v = (x + y + c * 10) / (2 * side + 20);
          else if (kind === 1) v = ((x >> 2) + (y >> 3)) & 1 ? 0.9 : 0.1;
          else if (kind === 2) v = noise;
          else {
            const r = Math.hypot(x - side / 2, y - side / 2) / side;
            v =
              0.5 +
              0.25 * Math.sin(x * 0.37 + c) +
              0.15 * Math.cos(y * 0.21 - c) -
              0.3 * r +
              0.1 * (noise - 0.5);
          }
          a[(c * side + y) * side + x] = Math.max(0, Math.min(1, v));
        }
    images.push(a);
  }
  return images;
}

function span(data: Float32Array): ValueRange {
  let min = Infinity;
  let max = -Infinity;
  for (const v of data) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

const widen = (a: ValueRange | undefined, b: ValueRange): ValueRange =>
  a ? { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) } : b;

/** Min/max of every Conv's input and raw output over the calibration images, from the fp32 `full` graph. */
export async function calibrate(full: OnnxGraph, threads: number): Promise<Calibration> {
  const session = await ort.InferenceSession.create(encodeModel(calibrationGraph(full)), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const cal: Calibration = {};
  try {
    const taps = calibrationTaps(full);
    const side = CALIBRATION_SIDE;
    for (const img of calibrationImages(side)) {
      const feeds: Record<string, ort.Tensor> = {
        [IMAGE_INPUT]: new ort.Tensor('float32', img, [1, 3, side, side]),
      };
      if (full.inputs.some((i) => i.name === ALPHA_INPUT))
        feeds[ALPHA_INPUT] = new ort.Tensor('float32', Float32Array.of(1), [1]);
      const res = await session.run(feeds);
      for (const t of taps) {
        const input = t.input === IMAGE_INPUT ? feeds[IMAGE_INPUT]! : res[t.input];
        const output = res[t.output];
        if (!input || !output) continue;
        const prev = cal[t.conv];
        const spatial = (output.dims[2] ?? 1) * (output.dims[3] ?? 1) > 1;
        cal[t.conv] = {
          input: widen(prev?.input, span(input.data as Float32Array)),
          output: widen(prev?.output, span(output.data as Float32Array)),
          spatial,
        };
      }
    }
  } finally {
    await session.release();
  }
  // The image is 8-bit: [0, 1] in 255 steps is lossless for the first convolution.
  const image = new Set([
    IMAGE_INPUT,
    ...full.nodes
      .filter((n) => n.opType === 'Identity' && n.inputs[0] === IMAGE_INPUT)
      .map((n) => n.outputs[0]!),
  ]);
  for (const t of calibrationTaps(full))
    if (image.has(t.input) && cal[t.conv]) cal[t.conv]!.input = { min: 0, max: 1 };
  return cal;
}

/**
 * The fast twin of `exact`: same geometry and variants, graphs in
 * `<exact.dir>/fast-v<FAST_VERSION>/`. Made on first use (a few seconds), then read.
 */
export async function fastModel(
  exact: ConvertedModel,
  paramPath: string,
  binPath: string,
  threads = 2,
): Promise<ConvertedModel> {
  const dir = path.join(exact.dir, `fast-v${FAST_VERSION}`);
  const manifestPath = path.join(dir, 'manifest.json');
  try {
    const m = JSON.parse(await readFile(manifestPath, 'utf8')) as FastManifest;
    if (m.version === FAST_VERSION) return { ...exact, dir, variants: m.variants };
  } catch {
    // not made yet
  }
  const [paramText, bin] = await Promise.all([readFile(paramPath, 'utf8'), readFile(binPath)]);
  const graph = parseNcnnParam(paramText);
  const weights = loadNcnnWeights(graph, bin);
  const specs = variantSpecs(graph, findSeBlocks(graph));
  const fullSpec = specs.find((s) => s.name === 'full');
  if (!fullSpec) throw new Error(`${exact.name}: no full variant to calibrate`);
  const calibration = await calibrate(buildOnnxGraph(graph, weights, fullSpec), threads);
  await mkdir(dir, { recursive: true });
  const variants: Record<string, string> = {};
  for (const spec of specs) {
    if (!exact.variants[spec.name]) continue;
    const file = `${spec.name}.onnx`;
    const tmp = path.join(dir, `${file}.tmp-${process.pid}-${randomUUID()}`);
    await writeFile(tmp, encodeModel(quantizeGraph(buildOnnxGraph(graph, weights, spec), calibration)));
    await rename(tmp, path.join(dir, file));
    variants[spec.name] = file;
  }
  const manifest: FastManifest = { version: FAST_VERSION, variants, calibration };
  const tmp = `${manifestPath}.tmp-${process.pid}-${randomUUID()}`;
  await writeFile(tmp, JSON.stringify(manifest, null, 2));
  await rename(tmp, manifestPath);
  return { ...exact, dir, variants };
}
