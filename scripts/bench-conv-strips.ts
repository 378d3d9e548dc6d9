// `node --import tsx scripts/bench-conv-strips.ts [-- --rounds N]`: what streaming the image in
// full-width strips would cost onnxruntime, before the upscaling engine is built that way. A chain
// of LAYERS valid 3x3 convolutions (CHANNELS channels, LeakyReLU, random weights, as in the
// Real-CUGAN U-Nets) on a 646x486 map (a 640x480 photo with its padding) runs
//   - once on the whole map (the untiled path's shape);
//   - on full-width strips of n output rows, each with the 2·LAYERS rows of halo it needs (what
//     independent tiles do, cut only across);
//   - on strips of n new rows that carry, for every convolution, the last 2 rows of its input from
//     the previous strip: graph inputs and outputs joined to the new rows by a Concat, so no row is
//     computed twice (the upscaling issue's "strips" idea).
// Each prints CPU seconds in user mode per output pixel (all channels; the median of the rounds
// after the first) against the whole map, and the carried and halo outputs are checked against
// the whole map's. The figure to read: whether carrying rows costs less than the halo rows it
// saves. onnxruntime runs its convolutions in a blocked channel layout (NCHWc); a Concat across
// rows is not one of the operators it keeps in that layout, so each carried layer also pays a
// reorder out of it and back.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { machineLine } from './machine-line.js';
import {
  type OnnxGraph,
  type OnnxNode,
  type OnnxValueInfo,
  TensorType,
  encodeModel,
  floatTensor,
  int64Tensor,
} from '../server/upscale/onnx-proto.js';

const CHANNELS = 64;
const LAYERS = 4;
const W = 646;
const H = 486;
const STRIPS = [16, 32, 64, 128];
/** rows each 3x3 convolution takes from the strip before */
const CARRY = 2;

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** A deterministic pseudo-random fill, so the weights and the map are the same every run. */
function fill(n: number, seed: number, scale: number): Float32Array {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32 - 0.5) * scale;
  });
}

/** The chain as an ONNX graph; `carried`: each convolution's input is its carry joined to the new rows. */
function chainGraph(carried: boolean): OnnxGraph {
  const nodes: OnnxNode[] = [];
  const initializers = [
    int64Tensor('rows_axis', [2]),
    int64Tensor('tail_start', [-CARRY]),
    int64Tensor('tail_end', [2 ** 62]),
  ];
  const inputs: OnnxValueInfo[] = [{ name: 'x', elemType: TensorType.FLOAT, shape: [1, CHANNELS, 'h', 'w'] }];
  const carries: OnnxValueInfo[] = [];
  let cur = 'x';
  for (let i = 0; i < LAYERS; i++) {
    initializers.push(
      floatTensor(`w${i}`, [CHANNELS, CHANNELS, 3, 3], fill(CHANNELS * CHANNELS * 9, i + 1, 0.1)),
    );
    initializers.push(floatTensor(`b${i}`, [CHANNELS], fill(CHANNELS, i + 100, 0.02)));
    let src = cur;
    if (carried) {
      inputs.push({
        name: `carry_in_${i}`,
        elemType: TensorType.FLOAT,
        shape: [1, CHANNELS, CARRY, `cw${i}`],
      });
      nodes.push({
        opType: 'Concat',
        inputs: [`carry_in_${i}`, cur],
        outputs: [`joined${i}`],
        attrs: { axis: 2 },
      });
      nodes.push({
        opType: 'Slice',
        inputs: [`joined${i}`, 'tail_start', 'tail_end', 'rows_axis'],
        outputs: [`carry_out_${i}`],
      });
      carries.push({
        name: `carry_out_${i}`,
        elemType: TensorType.FLOAT,
        shape: [1, CHANNELS, CARRY, `cow${i}`],
      });
      src = `joined${i}`;
    }
    nodes.push({
      opType: 'Conv',
      inputs: [src, `w${i}`, `b${i}`],
      outputs: [`conv${i}`],
      attrs: { kernel_shape: [3, 3] },
    });
    nodes.push({
      opType: 'LeakyRelu',
      inputs: [`conv${i}`],
      outputs: [`act${i}`],
      attrs: { alpha: { float: 0.1 } },
    });
    cur = `act${i}`;
  }
  nodes.push({ opType: 'Identity', inputs: [cur], outputs: ['y'] });
  const y: OnnxValueInfo = { name: 'y', elemType: TensorType.FLOAT, shape: [1, CHANNELS, 'oh', 'ow'] };
  return { name: carried ? 'carried' : 'plain', nodes, initializers, inputs, outputs: [y, ...carries] };
}

async function open(dir: string, graph: OnnxGraph): Promise<ort.InferenceSession> {
  const file = path.join(dir, `${graph.name}.onnx`);
  await writeFile(file, encodeModel(graph));
  return ort.InferenceSession.create(file, {
    intraOpNumThreads: os.availableParallelism(),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableMemPattern: false,
  });
}

/** Rows [y0, y0 + n) of the planar C x H x W map. */
function rows(map: Float32Array, y0: number, n: number): ort.Tensor {
  const out = new Float32Array(CHANNELS * n * W);
  for (let c = 0; c < CHANNELS; c++) out.set(map.subarray((c * H + y0) * W, (c * H + y0 + n) * W), c * n * W);
  return new ort.Tensor('float32', out, [1, CHANNELS, n, W]);
}

/** Output rows of several runs, stacked (planar, every run `width` wide). */
function stack(parts: ort.Tensor[], width: number): Float32Array {
  const total = parts.reduce((s, p) => s + p.dims[2]!, 0);
  const out = new Float32Array(CHANNELS * total * width);
  let y = 0;
  for (const p of parts) {
    const n = p.dims[2]!;
    const d = p.data as Float32Array;
    for (let c = 0; c < CHANNELS; c++)
      out.set(d.subarray(c * n * width, (c + 1) * n * width), (c * total + y) * width);
    y += n;
  }
  return out;
}

/** Largest difference between rows [skip, skip + outH) of `got` (gotRows tall) and `want`. */
function maxDiff(
  got: Float32Array,
  gotRows: number,
  skip: number,
  want: Float32Array,
  outW: number,
  outH: number,
): number {
  let max = 0;
  for (let c = 0; c < CHANNELS; c++)
    for (let i = 0; i < outH * outW; i++)
      max = Math.max(max, Math.abs(got[(c * gotRows + skip) * outW + i]! - want[c * outH * outW + i]!));
  return max;
}

async function main(): Promise<void> {
  const roundsArg = process.argv.indexOf('--rounds');
  const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 4;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loom-bench-strips-'));
  try {
    const plain = await open(dir, chainGraph(false));
    const carried = await open(dir, chainGraph(true));
    const map = fill(CHANNELS * H * W, 7, 2);
    const outW = W - 2 * LAYERS;
    const outH = H - 2 * LAYERS;
    const whole = async (): Promise<Float32Array> =>
      (await plain.run({ x: new ort.Tensor('float32', map, [1, CHANNELS, H, W]) }))['y']!
        .data as Float32Array;
    const halo = (n: number) => async (): Promise<Float32Array> => {
      const parts: ort.Tensor[] = [];
      for (let y = 0; y < outH; y += n)
        parts.push((await plain.run({ x: rows(map, y, Math.min(n, outH - y) + 2 * LAYERS) }))['y']!);
      return stack(parts, outW);
    };
    // The first strip's carries: the map's first rows for the first convolution, zeros for the
    // rest, whose first 2·(LAYERS-1) output rows are therefore warm-up and are not compared.
    const carry = (n: number) => async (): Promise<Float32Array> => {
      let state = Array.from({ length: LAYERS }, (_, i) =>
        i === 0
          ? rows(map, 0, CARRY)
          : new ort.Tensor('float32', new Float32Array(CHANNELS * CARRY * (W - 2 * i)), [
              1,
              CHANNELS,
              CARRY,
              W - 2 * i,
            ]),
      );
      const parts: ort.Tensor[] = [];
      for (let y = CARRY; y < H; y += n) {
        const feeds: Record<string, ort.Tensor> = { x: rows(map, y, Math.min(n, H - y)) };
        state.forEach((t, i) => (feeds[`carry_in_${i}`] = t));
        const res = await carried.run(feeds);
        state = state.map((_, i) => res[`carry_out_${i}`]!);
        parts.push(res['y']!);
      }
      return stack(parts, outW);
    };
    const warmup = CARRY * (LAYERS - 1);
    const configs: Array<{
      name: string;
      run: () => Promise<Float32Array>;
      check: (o: Float32Array, want: Float32Array) => number;
    }> = [{ name: 'whole map', run: whole, check: () => 0 }];
    for (const n of STRIPS) {
      configs.push({
        name: `strips of ${n} rows, with halos`,
        run: halo(n),
        check: (o, want) => maxDiff(o, outH, 0, want, outW, outH),
      });
      configs.push({
        name: `strips of ${n} rows, carried`,
        run: carry(n),
        check: (o, want) => maxDiff(o, H - CARRY, warmup, want, outW, outH),
      });
    }
    console.log(
      `bench:conv-strips, ${CHANNELS} channels, ${LAYERS} convolutions, ${W}x${H}, ${rounds} rounds (the first untimed) — ${machineLine()}\n`,
    );
    const want = await whole();
    const ns = configs.map(() => [] as number[]);
    const diff = configs.map(() => 0);
    for (let round = 0; round < rounds; round++)
      for (const [i, c] of configs.entries()) {
        const cpu = process.cpuUsage();
        const out = await c.run();
        const used = process.cpuUsage(cpu).user * 1000;
        if (round > 0) ns[i]!.push(used / (outW * outH));
        else diff[i] = c.check(out, want);
      }
    const base = median(ns[0]!);
    console.log('| shape | CPU user ns per output px | vs whole map | max difference from the whole map |');
    console.log('|---|---|---|---|');
    for (const [i, c] of configs.entries())
      console.log(
        `| ${c.name} | ${median(ns[i]!).toFixed(0)} | ${(median(ns[i]!) / base).toFixed(2)}x | ${diff[i]!.toExponential(1)} |`,
      );
    await plain.release();
    await carried.release();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
