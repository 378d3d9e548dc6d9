// `node --import tsx scripts/bench-winograd-layers.ts [model] [tile] [rounds]`:
// every 3×3 stride-1 convolution of a Real-CUGAN graph (default
// up2x-conservative) at its size in a tile of `tile` px (default 192), run alone
// as direct Conv and as Winograd F(2,3), F(4,3), F(6,3) (scripts/winograd.ts) on
// onnxruntime-node with 2 threads: CPU-user milliseconds per run (median of
// `rounds`, the variants interleaved, so load drifts hit all alike) and the
// largest difference from direct, relative to the largest output. The figures
// behind server/upscale/converter.ts's direct convolutions. WG_IN=conv or separable and
// WG_OUT=shuffle or deconv try the other forms of the transforms.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';

import { defaultModelsDir, weightsDir } from '../server/upscale/model-store.js';
import { blobAliases, modelGeometry, spatialLengths } from '../server/upscale/ncnn-analysis.js';
import { paramInt, parseNcnnParam } from '../server/upscale/ncnn-param.js';

import { encodeModel, floatTensor, type OnnxGraph, TensorType } from '../server/upscale/onnx-proto.js';
import { type WinogradConv, type WinogradTile, emitWinogradConv } from '../server/upscale/winograd.js';

// args: model (up2x-conservative) tile side (192) rounds (7)
const modelName = process.argv[2] ?? 'up2x-conservative';
const tileSide = Number(process.argv[3] ?? 192);
const rounds = Number(process.argv[4] ?? 7);
const graphDef = parseNcnnParam(readFileSync(path.join(weightsDir(defaultModelsDir()), `${modelName}.param`), 'utf8'));
const geo = modelGeometry(graphDef);
const sides = spatialLengths(graphDef, tileSide + 2 * geo.prepad);
const alias = blobAliases(graphDef);
/** every 3×3 stride-1 convolution: name, in/out channels, input side */
const layers: Array<{ name: string; inC: number; outC: number; side: number }> = [];
for (const l of graphDef.layers) {
  if (l.type !== 'Convolution' || paramInt(l, 1, 0) !== 3 || paramInt(l, 3, 1) !== 1) continue;
  const outC = paramInt(l, 0, 0);
  const inC = paramInt(l, 6, 0) / (outC * 9);
  const side = sides.get(alias.get(l.bottoms[0]!) ?? l.bottoms[0]!);
  if (typeof side === 'number') layers.push({ name: l.name, inC, outC, side });
}

function rand(n: number, seed: number, scale: number): Float32Array {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    a[i] = ((s >>> 8) / 2 ** 24 - 0.5) * scale;
  }
  return a;
}

/**
 * A transform form named in the environment, or undefined when unset. The emitter takes any other
 * name as its last form, so a misspelt one would be measured, and labelled, as a different form.
 */
function formFromEnv<T extends string>(name: string, forms: readonly T[]): T | undefined {
  const value = process.env[name];
  if (!value) return undefined;
  if (!(forms as readonly string[]).includes(value)) {
    console.error(`${name}=${value}: expected one of ${forms.join(', ')}`);
    process.exit(2);
  }
  return value as T;
}

type InForm = NonNullable<WinogradConv['inputTransform']>;
type OutForm = NonNullable<WinogradConv['outputTransform']>;
const wgIn = formFromEnv<InForm>('WG_IN', ['depthwise', 'conv', 'separable']);
const wgOut = formFromEnv<OutForm>('WG_OUT', ['separable', 'shuffle', 'deconv']);
const forms = { ...(wgIn ? { inputTransform: wgIn } : {}), ...(wgOut ? { outputTransform: wgOut } : {}) };

function graph(inC: number, outC: number, m: WinogradTile | 0, w: Float32Array, b: Float32Array): Uint8Array {
  const g: OnnxGraph = {
    name: 'layer',
    nodes: [],
    initializers: [],
    inputs: [{ name: 'x', elemType: TensorType.FLOAT, shape: [1, inC, 'h', 'w'] }],
    outputs: [{ name: 'y', elemType: TensorType.FLOAT, shape: [1, outC, 'oh', 'ow'] }],
  };
  if (m === 0) {
    g.initializers.push(floatTensor('w', [outC, inC, 3, 3], w), floatTensor('b', [outC], b));
    g.nodes.push({ opType: 'Conv', inputs: ['x', 'w', 'b'], outputs: ['pre'], attrs: { kernel_shape: [3, 3] } });
  } else {
    const conv = { name: 'l', input: 'x', output: 'pre', weight: w, bias: b, inC, outC, m, ...forms };
    emitWinogradConv(conv, g.nodes, g.initializers);
  }
  g.nodes.push({ opType: 'LeakyRelu', inputs: ['pre'], outputs: ['y'], attrs: { alpha: { float: 0.1 } } });
  return encodeModel(g);
}

const variants: Array<WinogradTile | 0> = [0, 2, 4, 6];
console.log(`${modelName}, tile ${tileSide}, load ${os.loadavg().map((v) => v.toFixed(1)).join(' ')}`);
console.log('layer | in->out @ side | direct ms | F2 ms | F4 ms | F6 ms | max |diff| F2 / F4 / F6 (relative to max |y|)');
for (const { name, inC, outC, side } of layers) {
  const w = rand(outC * inC * 9, inC * 7 + outC, 2 / Math.sqrt(inC * 9));
  const b = rand(outC, 3, 0.1);
  const x = new ort.Tensor('float32', rand(inC * side * side, 11, 2), [1, inC, side, side]);
  const sessions = await Promise.all(
    variants.map((m) =>
      ort.InferenceSession.create(graph(inC, outC, m, w, b), {
        intraOpNumThreads: 2,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
        enableMemPattern: false,
      }),
    ),
  );
  const outs: Float32Array[] = [];
  for (const s of sessions) outs.push((await s.run({ x }))['y']!.data as Float32Array); // warm-up
  const times: number[][] = variants.map(() => []);
  for (let r = 0; r < rounds; r++)
    for (let v = 0; v < variants.length; v++) {
      const c = process.cpuUsage();
      await sessions[v]!.run({ x });
      times[v]!.push(process.cpuUsage(c).user / 1000);
    }
  const med = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1]!;
  let ymax = 0;
  for (const v of outs[0]!) ymax = Math.max(ymax, Math.abs(v));
  const diffs = outs.slice(1).map((o) => {
    let d = 0;
    for (let i = 0; i < o.length; i++) d = Math.max(d, Math.abs(o[i]! - outs[0]![i]!));
    return (d / ymax).toExponential(1);
  });
  console.log(`${name} | ${inC}->${outC} @ ${side} | ${times.map((t) => med(t).toFixed(0)).join(' | ')} | ${diffs.join(' / ')}`);
  for (const s of sessions) await s.release();
}
