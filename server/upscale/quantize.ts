// int8 "fast" graphs: QDQ (QuantizeLinear / DequantizeLinear) rewrites of the
// converter's fp32 graphs, which onnxruntime's CPU provider fuses into integer
// convolutions (u8 activations x s8 weights, VNNI where the CPU has it).
// Weights are per output channel, symmetric int8; activations are per tensor,
// asymmetric uint8, with ranges calibrated by running the fp32 graph on
// synthetic images (calibration.ts).

import { type OnnxGraph, type OnnxNode, type OnnxTensor, TensorType, floatTensor } from './onnx-proto.js';

const WMAX = 127;
export interface ValueRange {
  min: number;
  max: number;
}

/** Calibrated ranges of one convolution, keyed in a Calibration by the Conv node's name (the ncnn layer). */
export interface ConvRanges {
  input: ValueRange;
  /** before the fused activation */
  output: ValueRange;
  /** false for the SE blocks' dense layers on [1,C,1,1] vectors (left in fp32) */
  spatial: boolean;
}

export type Calibration = Record<string, ConvRanges>;

export interface QuantizeOptions {
  /** Conv nodes (ncnn layer names) kept in fp32 */
  keepFloat?: ReadonlySet<string>;
  /** also quantize each Conv's output (needed for onnxruntime to run an integer convolution); default true */
  quantizeOutputs?: boolean;
}

/** Graph outputs a calibration run fetches per Conv: its input and its raw output. */
export function calibrationTaps(graph: OnnxGraph): Array<{ conv: string; input: string; output: string }> {
  const taps: Array<{ conv: string; input: string; output: string }> = [];
  for (const n of graph.nodes)
    if (n.opType === 'Conv' && n.name)
      taps.push({ conv: n.name, input: n.inputs[0]!, output: n.outputs[0]! });
  return taps;
}

/** The graph with every Conv's input and output also exposed as graph outputs. */
export function calibrationGraph(graph: OnnxGraph): OnnxGraph {
  const have = new Set(graph.outputs.map((o) => o.name));
  const extra = new Set<string>();
  for (const t of calibrationTaps(graph))
    for (const name of [t.input, t.output])
      if (!have.has(name) && !graph.inputs.some((i) => i.name === name)) extra.add(name);
  return {
    ...graph,
    outputs: [
      ...graph.outputs,
      ...[...extra].map((name) => ({
        name,
        elemType: TensorType.FLOAT,
        shape: [`${name}_n`, `${name}_c`, `${name}_h`, `${name}_w`],
      })),
    ],
  };
}

function tensor(
  name: string,
  dims: number[],
  dataType: OnnxTensor['dataType'],
  data: ArrayBufferView,
): OnnxTensor {
  return { name, dims, dataType, raw: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** uint8 affine parameters covering [min, max] and zero exactly. */
export function activationParams(r: ValueRange): { scale: number; zeroPoint: number } {
  const lo = Math.min(0, r.min);
  const hi = Math.max(0, r.max);
  const scale = hi > lo ? (hi - lo) / 255 : 1;
  const zeroPoint = Math.max(0, Math.min(255, Math.round(-lo / scale)));
  return { scale, zeroPoint };
}

/**
 * Rewrites each calibrated spatial Conv as DQ(Q(x)) * DQ(int8 W) + DQ(int32 b) -> Q -> DQ,
 * the node group onnxruntime turns into QLinearConv. Other nodes are untouched.
 */
export function quantizeGraph(
  graph: OnnxGraph,
  calibration: Calibration,
  opts: QuantizeOptions = {},
): OnnxGraph {
  const inits = new Map(graph.initializers.map((t) => [t.name, t]));
  const dropped = new Set<string>();
  const added: OnnxTensor[] = [];
  const nodes: OnnxNode[] = [];
  for (const n of graph.nodes) {
    const cal = n.name ? calibration[n.name] : undefined;
    const w = inits.get(n.inputs[1] ?? '');
    if (
      n.opType !== 'Conv' ||
      !n.name ||
      !cal ||
      !cal.spatial ||
      opts.keepFloat?.has(n.name) ||
      !w ||
      w.dims.length !== 4
    ) {
      nodes.push(n);
      continue;
    }
    const name = n.name;
    const wf = new Float32Array(w.raw.buffer.slice(w.raw.byteOffset, w.raw.byteOffset + w.raw.byteLength));
    const outC = w.dims[0]!;
    const per = wf.length / outC;
    const wq = new Int8Array(wf.length);
    const ws = new Float32Array(outC);
    for (let o = 0; o < outC; o++) {
      let m = 0;
      for (let i = 0; i < per; i++) m = Math.max(m, Math.abs(wf[o * per + i]!));
      const s = m > 0 ? m / WMAX : 1;
      ws[o] = s;
      for (let i = 0; i < per; i++)
        wq[o * per + i] = Math.max(-WMAX, Math.min(WMAX, Math.round(wf[o * per + i]! / s)));
    }
    const x = activationParams(cal.input);
    const y = activationParams(cal.output);
    added.push(
      tensor(`${name}_wq`, w.dims, TensorType.INT8, wq),
      floatTensor(`${name}_ws`, [outC], ws),
      tensor(`${name}_wz`, [outC], TensorType.INT8, new Int8Array(outC)),
      floatTensor(`${name}_xs`, [], Float32Array.of(x.scale)),
      tensor(`${name}_xz`, [], TensorType.UINT8, Uint8Array.of(x.zeroPoint)),
      floatTensor(`${name}_ys`, [], Float32Array.of(y.scale)),
      tensor(`${name}_yz`, [], TensorType.UINT8, Uint8Array.of(y.zeroPoint)),
    );
    dropped.add(w.name);
    const convInputs = [`${name}_xdq`, `${name}_wdq`];
    nodes.push(
      {
        opType: 'QuantizeLinear',
        inputs: [n.inputs[0]!, `${name}_xs`, `${name}_xz`],
        outputs: [`${name}_xq`],
      },
      {
        opType: 'DequantizeLinear',
        inputs: [`${name}_xq`, `${name}_xs`, `${name}_xz`],
        outputs: [`${name}_xdq`],
      },
      {
        opType: 'DequantizeLinear',
        inputs: [`${name}_wq`, `${name}_ws`, `${name}_wz`],
        outputs: [`${name}_wdq`],
        attrs: { axis: 0 },
      },
    );
    const b = inits.get(n.inputs[2] ?? '');
    if (b) {
      const bf = new Float32Array(b.raw.buffer.slice(b.raw.byteOffset, b.raw.byteOffset + b.raw.byteLength));
      const bs = new Float32Array(outC);
      const bq = new Int32Array(outC);
      for (let o = 0; o < outC; o++) {
        bs[o] = x.scale * ws[o]!;
        bq[o] = Math.round(bf[o]! / bs[o]!);
      }
      added.push(
        tensor(`${name}_bq`, [outC], TensorType.INT32, bq),
        floatTensor(`${name}_bs`, [outC], bs),
        tensor(`${name}_bz`, [outC], TensorType.INT32, new Int32Array(outC)),
      );
      dropped.add(b.name);
      nodes.push({
        opType: 'DequantizeLinear',
        inputs: [`${name}_bq`, `${name}_bs`, `${name}_bz`],
        outputs: [`${name}_bdq`],
        attrs: { axis: 0 },
      });
      convInputs.push(`${name}_bdq`);
    }
    if (opts.quantizeOutputs === false) {
      nodes.push({ ...n, inputs: convInputs });
      continue;
    }
    nodes.push(
      { ...n, inputs: convInputs, outputs: [`${name}_yf`] },
      {
        opType: 'QuantizeLinear',
        inputs: [`${name}_yf`, `${name}_ys`, `${name}_yz`],
        outputs: [`${name}_yq`],
      },
      {
        opType: 'DequantizeLinear',
        inputs: [`${name}_yq`, `${name}_ys`, `${name}_yz`],
        outputs: [n.outputs[0]!],
      },
    );
  }
  const stillUsed = new Set(nodes.flatMap((n) => n.inputs));
  return {
    ...graph,
    nodes,
    initializers: [
      ...graph.initializers.filter((t) => !dropped.has(t.name) || stillUsed.has(t.name)),
      ...added,
    ],
  };
}
