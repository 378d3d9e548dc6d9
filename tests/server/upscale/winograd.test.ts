// Winograd F(m, 3) convolutions (server/upscale/winograd.ts: the converter's
// wide layers on AVX2 CPUs) against onnxruntime's direct Conv: single layers of
// odd sizes, whole converted Real-CUGAN graphs with every 3×3 convolution
// rewritten as Winograd, and which layers the converter's plan takes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';

import { variantSpecs } from '../../../server/upscale/converter.js';
import { buildOnnxGraph, loadNcnnWeights } from '../../../server/upscale/graph-builder.js';
import { weightsDir } from '../../../server/upscale/model-store.js';
import { findSeBlocks } from '../../../server/upscale/ncnn-analysis.js';
import { paramInt, parseNcnnParam } from '../../../server/upscale/ncnn-param.js';
import { type OnnxGraph, TensorType, encodeModel, floatTensor } from '../../../server/upscale/onnx-proto.js';
import {
  WINOGRAD_TILES,
  type WinogradConv,
  type WinogradTile,
  emitWinogradConv,
  wideConvolutionPlan,
  winogradMatrices,
  withWinogradLayers,
} from '../../../server/upscale/winograd.js';
import { models } from './helpers.js';

function rand(n: number, seed: number, scale: number): Float32Array {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    a[i] = ((s >>> 8) / 2 ** 24 - 0.5) * scale;
  }
  return a;
}

async function runLayer(
  inC: number,
  outC: number,
  m: WinogradTile | 0,
  w: Float32Array,
  b: Float32Array | undefined,
  x: ort.Tensor,
  forms: Pick<WinogradConv, 'inputTransform' | 'outputTransform'> = {},
): Promise<ort.Tensor> {
  const g: OnnxGraph = {
    name: 'layer',
    nodes: [],
    initializers: [],
    inputs: [{ name: 'x', elemType: TensorType.FLOAT, shape: [1, inC, 'h', 'w'] }],
    outputs: [{ name: 'y', elemType: TensorType.FLOAT, shape: [1, outC, 'oh', 'ow'] }],
  };
  if (m === 0) {
    g.initializers.push(floatTensor('w', [outC, inC, 3, 3], w));
    if (b) g.initializers.push(floatTensor('b', [outC], b));
    g.nodes.push({ opType: 'Conv', inputs: b ? ['x', 'w', 'b'] : ['x', 'w'], outputs: ['y'], attrs: { kernel_shape: [3, 3] } });
  } else {
    const c = { name: 'l', input: 'x', output: 'y', weight: w, inC, outC, m, ...forms };
    emitWinogradConv(b ? { ...c, bias: b } : c, g.nodes, g.initializers);
  }
  const s = await ort.InferenceSession.create(encodeModel(g), { graphOptimizationLevel: 'all' });
  try {
    return (await s.run({ x }))['y']!;
  } finally {
    await s.release();
  }
}

/** The largest difference from the direct result, relative to its largest value. */
function relativeMaxError(direct: Float32Array, wino: Float32Array): number {
  let err = 0;
  let top = 0;
  for (let i = 0; i < direct.length; i++) {
    err = Math.max(err, Math.abs(direct[i]! - wino[i]!));
    top = Math.max(top, Math.abs(direct[i]!));
  }
  return err / top;
}

describe('Winograd transforms', () => {
  it.each(WINOGRAD_TILES)('F(%i, 3) matrices compute a 1-D correlation exactly', (m) => {
    const { alpha, at, g, bt } = winogradMatrices(m);
    const d = Array.from({ length: alpha }, (_, i) => Math.sin(i + 1) * 3);
    const k = [0.5, -1.25, 2];
    const gk = Array.from({ length: alpha }, (_, j) => k.reduce((s, v, q) => s + g[j * 3 + q]! * v, 0));
    const bd = Array.from({ length: alpha }, (_, j) => d.reduce((s, v, l) => s + bt[j * alpha + l]! * v, 0));
    for (let i = 0; i < m; i++) {
      const y = gk.reduce((s, v, j) => s + at[i * alpha + j]! * v * bd[j]!, 0);
      expect(y).toBeCloseTo(k[0]! * d[i]! + k[1]! * d[i + 1]! + k[2]! * d[i + 2]!, 9);
    }
  });
});

describe('Winograd convolution layers against direct convolution', () => {
  // sizes that are and are not multiples of the tile, down to a single output pixel, and strips
  // one output row or column thin
  const cases: Array<[WinogradTile, number, number, number, number, boolean]> = [];
  for (const m of WINOGRAD_TILES)
    for (const [inC, outC, h, w, bias] of [
      [3, 8, 3, 3, true],
      [16, 16, 13, 9, true],
      [8, 4, 2 * m + 2, 3 * m + 2, false],
      [32, 12, 37, 41, true],
      [4, 4, 3, 41, true],
      [4, 4, 41, 3, true],
    ] as const)
      cases.push([m, inC, outC, h, w, bias]);
  it.each(cases)('F(%i, 3) %i->%i channels on %ix%i (bias %s)', async (m, inC, outC, h, w, bias) => {
    const wt = rand(outC * inC * 9, inC * 31 + outC, 2 / Math.sqrt(inC * 9));
    const b = bias ? rand(outC, 5, 0.2) : undefined;
    const x = new ort.Tensor('float32', rand(inC * h * w, h * 7 + w, 2), [1, inC, h, w]);
    const direct = await runLayer(inC, outC, 0, wt, b, x);
    const wino = await runLayer(inC, outC, m, wt, b, x);
    expect(wino.dims).toEqual([1, outC, h - 2, w - 2]);
    expect(relativeMaxError(direct.data as Float32Array, wino.data as Float32Array)).toBeLessThan(
      m === 6 ? 1e-4 : 3e-5,
    );
  });
});

describe('the other forms of the transforms, kept for measuring', () => {
  type Forms = [NonNullable<WinogradConv['inputTransform']>, NonNullable<WinogradConv['outputTransform']>];
  const forms: Forms[] = [];
  for (const i of ['depthwise', 'conv', 'separable'] as const)
    for (const o of ['separable', 'shuffle', 'deconv'] as const) forms.push([i, o]);
  it.each(forms)('input %s, output %s: F(4, 3) 16->12 on 13x19 matches direct', async (inForm, outForm) => {
    const [inC, outC, h, w] = [16, 12, 13, 19];
    const wt = rand(outC * inC * 9, 77, 2 / Math.sqrt(inC * 9));
    const b = rand(outC, 6, 0.2);
    const x = new ort.Tensor('float32', rand(inC * h * w, 15, 2), [1, inC, h, w]);
    const a = (await runLayer(inC, outC, 0, wt, b, x)).data as Float32Array;
    const wino = await runLayer(inC, outC, 4, wt, b, x, { inputTransform: inForm, outputTransform: outForm });
    expect(wino.dims).toEqual([1, outC, h - 2, w - 2]);
    expect(relativeMaxError(a, wino.data as Float32Array)).toBeLessThan(3e-5);
  });

  it('emits the depthwise input and the separable output by default, with one set of input kernels', () => {
    const nodes: Parameters<typeof emitWinogradConv>[1] = [];
    const inits: Parameters<typeof emitWinogradConv>[2] = [];
    const weight = rand(8 * 16 * 9, 1, 0.1);
    emitWinogradConv({ name: 'l', input: 'x', output: 'y', weight, inC: 16, outC: 8, m: 4 }, nodes, inits);
    const inConv = nodes.find((n) => n.name === 'l_wg_in')!;
    expect(inConv.attrs?.['group']).toBe(16);
    expect(nodes.map((n) => n.opType)).not.toContain('DepthToSpace');
    expect(inits.find((t) => t.name === 'l_wg_bt')!.dims).toEqual([36, 1, 6, 6]);
  });
});

describe('converted Real-CUGAN graphs with Winograd layers', () => {
  it.each([
    ['up2x-conservative', 4],
    ['up3x-conservative', 6],
    ['up4x-conservative', 2],
  ] as const)('%s with every 3x3 convolution as F(%i, 3) matches the direct graph within 1/255', async (name, m) => {
    const dir = await models();
    const [param, bin] = await Promise.all([
      readFile(path.join(weightsDir(dir), `${name}.param`), 'utf8'),
      readFile(path.join(weightsDir(dir), `${name}.bin`)),
    ]);
    const graph = parseNcnnParam(param);
    const weights = loadNcnnWeights(graph, bin);
    const plan: Record<string, WinogradTile> = {};
    for (const l of graph.layers)
      if (l.type === 'Convolution' && paramInt(l, 1, 0) === 3 && paramInt(l, 3, 1) === 1) plan[l.name] = m;
    expect(Object.keys(plan).length).toBeGreaterThan(10);
    const full = variantSpecs(graph, findSeBlocks(graph)).find((s) => s.name === 'full')!;
    const side = 72; // a multiple of every model's alignment, and large enough for its valid convolutions
    const x = new ort.Tensor('float32', rand(3 * side * side, 9, 1).map((v) => v + 0.5), [1, 3, side, side]);
    const outputs: Float32Array[] = [];
    const direct = buildOnnxGraph(graph, weights, full);
    const wino = withWinogradLayers(direct, plan);
    expect(wino.nodes.filter((n) => n.opType === 'Conv' && n.name !== undefined && n.name in plan)).toEqual([]);
    expect(wino.nodes.filter((n) => n.name?.endsWith('_wg_mm')).length).toBe(Object.keys(plan).length);
    for (const onnx of [direct, wino]) {
      const s = await ort.InferenceSession.create(encodeModel(onnx));
      const feeds: Record<string, ort.Tensor> = { input: x };
      if (s.inputNames.includes('alpha')) feeds['alpha'] = new ort.Tensor('float32', Float32Array.of(1), []);
      outputs.push((await s.run(feeds))['output']!.data as Float32Array);
      await s.release();
    }
    const [a, b] = outputs as [Float32Array, Float32Array];
    expect(b.length).toBe(a.length);
    let err = 0;
    for (let i = 0; i < a.length; i++) err = Math.max(err, Math.abs(a[i]! - b[i]!));
    expect(err).toBeLessThan(0.5 / 255);
  });
});

describe("the converter's plan for AVX2 CPUs", () => {
  it('takes every valid 3x3 stride-1 convolution with 128 channels on a side, as F(4,3), and nothing else', async () => {
    const dir = await models();
    for (const name of ['up2x-conservative', 'up3x-conservative', 'up4x-conservative']) {
      const [param, bin] = await Promise.all([
        readFile(path.join(weightsDir(dir), `${name}.param`), 'utf8'),
        readFile(path.join(weightsDir(dir), `${name}.bin`)),
      ]);
      const graph = parseNcnnParam(param);
      const full = variantSpecs(graph, findSeBlocks(graph)).find((s) => s.name === 'full')!;
      const plan = wideConvolutionPlan(buildOnnxGraph(graph, loadNcnnWeights(graph, bin), full));
      const wide = graph.layers
        .filter((l) => l.type === 'Convolution' && paramInt(l, 1, 0) === 3 && paramInt(l, 3, 1) === 1)
        .filter((l) => {
          const outC = paramInt(l, 0, 0);
          return Math.max(outC, paramInt(l, 6, 0) / (outC * 9)) >= 128;
        })
        .map((l) => l.name);
      // the U-Nets' 64<->128 and 128<->256 layers: six in every model
      expect(wide.length).toBe(6);
      expect(plan).toEqual(Object.fromEntries(wide.map((n) => [n, 4])));
    }
  });

  it('leaves padded, strided and grouped convolutions alone', () => {
    const conv = (name: string, attrs: Record<string, number[] | number>): OnnxGraph['nodes'][number] => ({
      opType: 'Conv',
      name,
      inputs: ['x', 'w'],
      outputs: [name],
      attrs: { kernel_shape: [3, 3], ...attrs },
    });
    const graph: OnnxGraph = {
      name: 'g',
      nodes: [
        conv('plain', {}),
        conv('padded', { pads: [1, 1, 1, 1] }),
        conv('strided', { strides: [2, 2] }),
        conv('grouped', { group: 2 }),
        { ...conv('wide1x1', {}), attrs: { kernel_shape: [1, 1] } },
      ],
      initializers: [floatTensor('w', [128, 64, 3, 3], new Float32Array(128 * 64 * 9))],
      inputs: [],
      outputs: [],
    };
    expect(wideConvolutionPlan(graph)).toEqual({ plain: 4 });
    const narrow = { ...graph, initializers: [floatTensor('w', [64, 64, 3, 3], new Float32Array(64 * 64 * 9))] };
    expect(wideConvolutionPlan(narrow)).toEqual({});
  });
});
