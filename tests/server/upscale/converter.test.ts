// Converter unit tests on small hand-made ncnn graphs, run through onnxruntime.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';

import {
  convertModel,
  halfFeatures,
  skipPrefix,
  variantSpecs,
  withSkips,
} from '../../../server/upscale/converter.js';
import { buildOnnxGraph, loadNcnnWeights } from '../../../server/upscale/graph-builder.js';
import { weightsDir } from '../../../server/upscale/model-store.js';
import { findSeBlocks } from '../../../server/upscale/ncnn-analysis.js';
import { NcnnBinReader } from '../../../server/upscale/ncnn-bin.js';
import { TensorType } from '../../../server/upscale/onnx-proto.js';
import { parseNcnnParam } from '../../../server/upscale/ncnn-param.js';
import { models } from './helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const f32 = (v: number[]): Buffer => Buffer.from(new Float32Array(v).buffer);
function fp16Blob(v: number[]): Buffer {
  // exact halves for the small integers and halves used here
  const h = v.map((x) => {
    if (x === 0) return 0;
    const sign = x < 0 ? 0x8000 : 0;
    const a = Math.abs(x);
    const e = Math.floor(Math.log2(a));
    return sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
  });
  const data = Buffer.alloc(((h.length * 2 + 3) & ~3) + 4);
  data.writeUInt32LE(0x01306b47, 0);
  h.forEach((x, i) => data.writeUInt16LE(x, 4 + i * 2));
  return data;
}
const fp32Blob = (v: number[]): Buffer => Buffer.concat([Buffer.alloc(4), f32(v)]);
function tableBlob(v: number[]): Buffer {
  const table = new Float32Array(256);
  const uniq = [...new Set(v)];
  uniq.forEach((x, i) => (table[i] = x));
  const idx = Buffer.alloc((v.length + 3) & ~3);
  v.forEach((x, i) => (idx[i] = uniq.indexOf(x)));
  return Buffer.concat([Buffer.from([1, 0, 0, 0]), Buffer.from(table.buffer), idx]);
}

async function convertAndRun(
  param: string,
  bin: Buffer,
  input: Float32Array,
  dims: number[],
  extra: Record<string, ort.Tensor> = {},
): Promise<ort.Tensor> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loom-conv-'));
  dirs.push(dir);
  await writeFile(path.join(dir, 'm.param'), param);
  await writeFile(path.join(dir, 'm.bin'), bin);
  const m = await convertModel(path.join(dir, 'm.param'), path.join(dir, 'm.bin'), path.join(dir, 'onnx'));
  const s = await ort.InferenceSession.create(path.join(m.dir, m.variants['full']!));
  const feeds: Record<string, ort.Tensor> = { input: new ort.Tensor('float32', input, dims), ...extra };
  if (s.inputNames.includes('alpha')) feeds['alpha'] = new ort.Tensor('float32', Float32Array.of(1), []);
  const r = await s.run(feeds);
  await s.release();
  return r['output']!;
}

describe('ncnn parsers', () => {
  it('parses layers, scalar and array parameters', () => {
    const g = parseNcnnParam(
      '7767517\n2 2\nInput in0 0 1 in0\nCrop c 1 1 in0 out0 -23309=2,4,4 -23310=2,-4,-4 -23311=2,-2,-1 0=3\n',
    );
    expect(g.layers[1]!.params.get(9)).toEqual([4, 4]);
    expect(g.layers[1]!.params.get(11)).toEqual([-2, -1]);
    expect(g.layers[1]!.params.get(0)).toBe(3);
    expect(() => parseNcnnParam('123\n0 0\n')).toThrow(/magic/);
  });

  it('reads fp16, fp32 and quantised-table weight blobs and raw biases', () => {
    const r = new NcnnBinReader(
      Buffer.concat([fp16Blob([1, -2, 0.5]), fp32Blob([0.1, 0.2]), tableBlob([3, 3, 7]), f32([9])]),
    );
    expect([...r.readTagged(3)]).toEqual([1, -2, 0.5]);
    expect([...r.readTagged(2)].map((x) => Number(x.toFixed(6)))).toEqual([0.1, 0.2]);
    expect([...r.readTagged(3)]).toEqual([3, 3, 7]);
    expect([...r.readRaw(1)]).toEqual([9]);
    expect(r.remaining).toBe(0);
  });
});

describe('ncnn -> ONNX', () => {
  it('Convolution with fused LeakyReLU, Deconvolution (weight transpose), Crop and Add', async () => {
    // 1 channel in; conv 1x1 -> 2 channels (w = [1, -1], bias [0, 0.5]) with leaky 0.1;
    // deconv 2 -> 1, kernel 2, stride 2: weights [out=1][in=2][2][2];
    // crop 2 px each side; add the cropped deconv output to itself.
    const param = [
      '7767517',
      '5 6',
      'Input in0 0 1 in0',
      'Convolution conv 1 1 in0 a 0=2 1=1 5=1 6=2 9=2 -23310=1,1.000000e-01',
      'Deconvolution deconv 1 1 a b 0=1 1=2 3=2 5=1 6=8',
      'Crop crop 1 1 b c -23309=2,2,2 -23310=2,-2,-2 -23311=2,-2,-1',
      'BinaryOp add 2 1 c c out0 0=0',
    ].join('\n');
    const bin = Buffer.concat([
      fp16Blob([1, -1]),
      f32([0, 0.5]),
      fp32Blob([1, 2, 3, 4, 10, 20, 30, 40]), // in-channel 0 taps 1..4, in-channel 1 taps 10..40
      f32([0.25]),
    ]);
    const x = Float32Array.from({ length: 16 }, (_, i) => (i % 5) - 1.5); // 4x4
    const out = await convertAndRun(param, bin, x, [1, 1, 4, 4]);
    expect(out.dims).toEqual([1, 1, 4, 4]);
    // reference computed directly
    const leaky = (v: number): number => (v > 0 ? v : 0.1 * v);
    const a0 = [...x].map((v) => leaky(v));
    const a1 = [...x].map((v) => leaky(-v + 0.5));
    const full = new Float32Array(64).fill(0.25);
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++)
        for (let ky = 0; ky < 2; ky++)
          for (let kx = 0; kx < 2; kx++) {
            const k = ky * 2 + kx;
            full[(i * 2 + ky) * 8 + j * 2 + kx]! +=
              a0[i * 4 + j]! * [1, 2, 3, 4][k]! + a1[i * 4 + j]! * [10, 20, 30, 40][k]!;
          }
    const expected: number[] = [];
    for (let y = 2; y < 6; y++) for (let xx = 2; xx < 6; xx++) expected.push(2 * full[y * 8 + xx]!);
    [...(out.data as Float32Array)].forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 4));
  });

  // Overlapping strided deconvolutions are emitted as Conv + DepthToSpace + Slice, those whose
  // kernel is their stride as ConvTranspose with the bias on a channel of ones: compare with a
  // direct transposed convolution (ncnn weights [out][in][kh][kw]).
  for (const d of [
    { k: 2, s: 2, p: 0, leaky: true }, // Real-CUGAN's upsampling layers (conv2_up and the like)
    { k: 3, s: 3, p: 0, leaky: false },
    { k: 4, s: 2, p: 3, leaky: true }, // Real-CUGAN 4x deconv_51 / 2x deconv_48
    { k: 5, s: 3, p: 1, leaky: false }, // kernel not a multiple of the stride (3x deconv_48 has pad 2)
    { k: 6, s: 2, p: 2, leaky: true }, // three taps per axis
  ]) {
    it(`Deconvolution kernel ${d.k} stride ${d.s} pad ${d.p} equals the direct transposed convolution`, async () => {
      const inC = 2;
      const outC = 3;
      const H = 5;
      const W = 4;
      const wts = Array.from({ length: outC * inC * d.k * d.k }, (_, i) => ((i * 37) % 17) / 8 - 1);
      const bias = [0.25, -0.5, 0.125];
      const param = [
        '7767517',
        '2 2',
        'Input in0 0 1 in0',
        `Deconvolution dc 1 1 in0 out0 0=${outC} 1=${d.k} 3=${d.s} 4=${d.p} 5=1 6=${wts.length}` +
          (d.leaky ? ' 9=2 -23310=1,1.000000e-01' : ''),
      ].join('\n');
      const x = Float32Array.from({ length: inC * H * W }, (_, i) => ((i * 13) % 11) / 5 - 1);
      const out = await convertAndRun(param, Buffer.concat([fp32Blob(wts), f32(bias)]), x, [1, inC, H, W]);
      const fullH = (H - 1) * d.s + d.k;
      const fullW = (W - 1) * d.s + d.k;
      const oh = fullH - 2 * d.p;
      const ow = fullW - 2 * d.p;
      expect(out.dims).toEqual([1, outC, oh, ow]);
      const full = new Float64Array(outC * fullH * fullW);
      for (let c = 0; c < outC; c++) {
        full.fill(bias[c]!, c * fullH * fullW, (c + 1) * fullH * fullW);
        for (let i = 0; i < inC; i++)
          for (let y = 0; y < H; y++)
            for (let xx = 0; xx < W; xx++)
              for (let ky = 0; ky < d.k; ky++)
                for (let kx = 0; kx < d.k; kx++)
                  full[(c * fullH + y * d.s + ky) * fullW + xx * d.s + kx]! +=
                    x[(i * H + y) * W + xx]! * wts[((c * inC + i) * d.k + ky) * d.k + kx]!;
      }
      const got = out.data as Float32Array;
      for (let c = 0; c < outC; c++)
        for (let y = 0; y < oh; y++)
          for (let xx = 0; xx < ow; xx++) {
            const v = full[(c * fullH + y + d.p) * fullW + xx + d.p]!;
            expect(got[(c * oh + y) * ow + xx]).toBeCloseTo(d.leaky && v < 0 ? 0.1 * v : v, 4);
          }
    });
  }

  it('with winograd, the wide 3x3 convolutions become Winograd subgraphs in a set of their own, with the same output', async () => {
    // 1 -> 128 -> 1 channels, both 3x3 valid: each has 128 channels on a side
    const param = [
      '7767517',
      '3 3',
      'Input in0 0 1 in0',
      'Convolution wide_in 1 1 in0 a 0=128 1=3 5=1 6=1152 9=2 -23310=1,1.000000e-01',
      'Convolution wide_out 1 1 a out0 0=1 1=3 5=1 6=1152',
    ].join('\n');
    const taps = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => Math.sin(i * 0.7 + seed) * 0.5);
    const bin = Buffer.concat([fp32Blob(taps(1152, 1)), f32(taps(128, 2)), fp32Blob(taps(1152, 3)), f32([0.25])]);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'loom-conv-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'm.param'), param);
    await writeFile(path.join(dir, 'm.bin'), bin);
    const paths = [path.join(dir, 'm.param'), path.join(dir, 'm.bin'), path.join(dir, 'onnx')] as const;
    const direct = await convertModel(...paths);
    const winograd = await convertModel(...paths, { winograd: true });
    expect(winograd.dir).not.toBe(direct.dir);
    expect(Object.keys(winograd.variants)).toEqual(Object.keys(direct.variants));
    // the direct set keeps the folder (and the hash devices know it by) it had before the option
    expect((await convertModel(...paths, { winograd: false })).dir).toBe(direct.dir);
    const files = await Promise.all(
      [direct, winograd].map((m) => readFile(path.join(m.dir, m.variants['full']!), 'latin1')),
    );
    expect(files[0]).not.toContain('wide_in_wg_mm');
    expect(files[1]).toContain('wide_in_wg_mm');
    expect(files[1]).toContain('wide_out_wg_mm');
    const x = Float32Array.from({ length: 100 }, (_, i) => Math.cos(i * 0.3)); // 10x10
    const outputs: Float32Array[] = [];
    for (const m of [direct, winograd]) {
      const s = await ort.InferenceSession.create(path.join(m.dir, m.variants['full']!));
      const r = await s.run({ input: new ort.Tensor('float32', x, [1, 1, 10, 10]) });
      await s.release();
      expect(r['output']!.dims).toEqual([1, 1, 6, 6]);
      outputs.push(r['output']!.data as Float32Array);
    }
    const top = Math.max(...outputs[0]!.map(Math.abs));
    for (let i = 0; i < 36; i++) expect(Math.abs(outputs[1]![i]! - outputs[0]![i]!)).toBeLessThan(1e-5 * top);
  });

  it('a deconvolution whose kernel is its stride takes its bias in the multiply, on a channel of ones', () => {
    const param = (k: number, s: number, p: number): string =>
      [
        '7767517',
        '2 2',
        'Input in0 0 1 in0',
        `Deconvolution dc 1 1 in0 out0 0=3 1=${k} 3=${s} 4=${p} 5=1 6=${3 * 2 * k * k}`,
      ].join('\n');
    const form = (
      k: number,
      s: number,
      p: number,
    ): { ops: string[]; inputs: number; weightDims: number[] } => {
      const graph = parseNcnnParam(param(k, s, p));
      const weights = loadNcnnWeights(
        graph,
        Buffer.concat([fp32Blob(Array(3 * 2 * k * k).fill(0.5)), f32([1, 2, 3])]),
      );
      const g = buildOnnxGraph(graph, weights, { name: 'full', outputs: [{ name: 'output', blob: 'out0' }] });
      const deconv = g.nodes.find((n) => n.opType === 'ConvTranspose');
      return {
        ops: g.nodes.map((n) => n.opType).filter((op) => op !== 'Identity'),
        inputs: deconv?.inputs.length ?? 0,
        weightDims: g.initializers.find((t) => t.name === deconv?.inputs[1])?.dims ?? [],
      };
    };
    // 2 input channels and the ones; the bias is no input of its own
    expect(form(2, 2, 0)).toEqual({
      ops: ['Pad', 'ConvTranspose'],
      inputs: 2,
      weightDims: [3, 3, 2, 2],
    });
    // padded: its border pixels take no input pixel, so the bias stays an input
    expect(form(2, 2, 1)).toMatchObject({ ops: ['ConvTranspose'], inputs: 3 });
  });

  it("SE sync variants sum a tile's own range of the features in the graph", async () => {
    const param = [
      '7767517',
      '7 8',
      'Input in0 0 1 in0',
      'Convolution conv 1 1 in0 f 0=2 1=1 5=0 6=2',
      'Split sp 1 2 f x1 x2',
      'Pooling gap 1 1 x2 g 0=1 4=1',
      'InnerProduct fc1 1 1 g h 0=2 1=0 2=4',
      'InnerProduct fc2 1 1 h s 0=2 1=0 2=4 9=4',
      'BinaryOp mul 2 1 x1 s out0 0=2',
    ].join('\n');
    // conv: channel 0 = x, channel 1 = 2x
    const bin = Buffer.concat([fp32Blob([1, 2]), fp32Blob([1, 0, 0, 1]), fp32Blob([1, 0, 0, 1])]);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'loom-conv-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'm.param'), param);
    await writeFile(path.join(dir, 'm.bin'), bin);
    const m = await convertModel(path.join(dir, 'm.param'), path.join(dir, 'm.bin'), path.join(dir, 'onnx'));
    const x = Float32Array.from({ length: 12 }, (_, i) => i + 1); // 1 channel, 3 rows x 4 columns
    const range = {
      own_start: new ort.Tensor('int64', BigInt64Array.of(1n, 1n), [2]),
      own_end: new ort.Tensor('int64', BigInt64Array.of(3n, 3n), [2]),
    };
    const owned = 6 + 7 + 10 + 11; // rows 1-2, columns 1-2
    for (const variant of ['probe-0', 'stage-0']) {
      const s = await ort.InferenceSession.create(path.join(m.dir, m.variants[variant]!));
      // the manifest lists the inputs the engine plans its cache by
      expect(m.inputs[variant]).toEqual(s.inputNames);
      const r = await s.run({ input: new ort.Tensor('float32', x, [1, 1, 3, 4]), ...range });
      await s.release();
      expect([...(r['se_sum']!.data as Float32Array)]).toEqual([owned, 2 * owned]);
    }
  });

  it('squeeze-and-excitation block: global pooling, InnerProduct, Sigmoid, broadcast Mul, alpha', async () => {
    const param = [
      '7767517',
      '6 7',
      'Input in0 0 1 in0',
      'Split sp 1 2 in0 x1 x2',
      'Pooling gap 1 1 x2 g 0=1 4=1',
      'InnerProduct fc1 1 1 g h 0=2 1=1 2=6 9=1',
      'InnerProduct fc2 1 1 h s 0=3 1=0 2=6 9=4',
      'BinaryOp mul 2 1 x1 s out0 0=2',
    ].join('\n');
    const bin = Buffer.concat([fp32Blob([1, 0, 0, 0, 1, 0]), f32([0, -10]), fp16Blob([1, 0, 0, 2, 0, 0])]);
    const x = Float32Array.from({ length: 12 }, (_, i) => i + 1); // 3 channels of 2x2
    const out = await convertAndRun(param, bin, x, [1, 3, 2, 2]);
    const sig = (v: number): number => 1 / (1 + Math.exp(-v));
    // channel means 2.5, 6.5, 10.5; hidden = relu([2.5, 6.5 - 10]) = [2.5, 0]
    const s = [sig(2.5), sig(0), sig(0)];
    [...(out.data as Float32Array)].forEach((v, i) =>
      expect(v).toBeCloseTo(x[i]! * s[Math.floor(i / 4)]!, 5),
    );
  });
});

describe('skip branches of the Real-CUGAN graphs', () => {
  it('with them, no stage runs a convolution an earlier stage ran (2x, 3x, 4x)', async () => {
    const dir = await models();
    for (const prefix of ['up2x', 'up3x', 'up4x']) {
      const graph = parseNcnnParam(
        await readFile(path.join(weightsDir(dir), `${prefix}-conservative.param`), 'utf8'),
      );
      const weights = loadNcnnWeights(
        graph,
        await readFile(path.join(weightsDir(dir), `${prefix}-conservative.bin`)),
      );
      const se = findSeBlocks(graph);
      const specs = variantSpecs(graph, se);
      const spatial = new Set(
        graph.layers.filter((l) => l.type === 'Convolution' || l.type === 'Deconvolution').map((l) => l.name),
      );
      const runs = (name: string): string[] => {
        const spec =
          specs.find((s) => s.name === `${name}${withSkips}`) ?? specs.find((s) => s.name === name)!;
        return buildOnnxGraph(graph, weights, spec)
          .nodes.map((n) => n.name ?? '')
          .filter((n) => spatial.has(n));
      };
      const plain = (name: string): string[] =>
        buildOnnxGraph(
          graph,
          weights,
          specs.find((s) => s.name === name)!,
        )
          .nodes.map((n) => n.name ?? '')
          .filter((n) => spatial.has(n));
      const seen = new Map<string, number>();
      let recomputedWithout = 0;
      for (let k = 0; k <= se.length; k++) {
        for (const conv of runs(`stage-${k}${halfFeatures}`)) {
          expect(seen.has(conv), `${prefix} stage-${k} reruns ${conv}`).toBe(false);
          seen.set(conv, k);
        }
        recomputedWithout += plain(`stage-${k}`).filter((c) => (seen.get(c) ?? k) < k).length;
      }
      // without them, stages 1 and the last recompute the U-Nets' first convolutions
      expect(recomputedWithout).toBeGreaterThanOrEqual(4);
      // every skip is float16, wide, and taken by a stage after the one that outputs it
      for (const s of specs.filter((x) => x.name.endsWith(withSkips)))
        for (const o of s.overrides!.filter((x) => x.name.startsWith(skipPrefix))) {
          expect(o.half).toBe(true);
          expect(o.channels).toBeGreaterThan(4);
          const producer = specs.find(
            (x) => x.name.endsWith(withSkips) && x.outputs.some((out) => out.half && out.blob === o.blob),
          )!;
          expect(Number(/stage-(\d+)/.exec(producer.name)![1])).toBeLessThan(
            Number(/stage-(\d+)/.exec(s.name)![1]),
          );
        }
      // the server's stages pass the features on as float16; the device's, float32 throughout
      for (let k = 0; k <= se.length; k++) {
        // float16 values: inputs, outputs and casts to it (the owned sums' masks are cast from booleans)
        const halves = (name: string): number => {
          const g = buildOnnxGraph(
            graph,
            weights,
            specs.find((s) => s.name === name)!,
          );
          return (
            [...g.inputs, ...g.outputs].filter((v) => v.elemType === TensorType.FLOAT16).length +
            g.nodes.filter((n) => n.opType === 'Cast' && n.attrs?.['to'] === TensorType.FLOAT16).length
          );
        };
        expect(halves(`stage-${k}`), `${prefix} stage-${k}`).toBe(0);
        expect(halves(`stage-${k}${halfFeatures}`), `${prefix} stage-${k}${halfFeatures}`).toBeGreaterThan(0);
        expect(runs(`stage-${k}`).sort()).toEqual(plain(`stage-${k}${halfFeatures}`).sort());
      }
    }
  });
});
