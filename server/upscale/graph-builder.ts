// Turns a parsed ncnn graph and its weights into an ONNX graph. One graph can be
// emitted in several "variants": any blob can be replaced by a graph input (used
// to feed shared SE means or cached features into a tile) and any blobs can be
// outputs (used to stop at an SE sync point); layers not needed for the requested
// outputs are pruned, because onnxruntime runs the whole graph otherwise.

import { type NcnnGraph, type NcnnLayer, paramArray, paramInt } from './ncnn-param.js';
import { NcnnBinReader } from './ncnn-bin.js';
import { UnsupportedGraphError, blobAliases, findSeBlocks } from './ncnn-analysis.js';
import {
  type OnnxGraph,
  type OnnxNode,
  type OnnxTensor,
  type OnnxValueInfo,
  TensorType,
  floatTensor,
  int64Tensor,
} from './onnx-proto.js';

export interface LayerWeights {
  weight: Float32Array;
  bias?: Float32Array;
}

/** Reads the .bin in layer order, as ncnn does. */
export function loadNcnnWeights(graph: NcnnGraph, bin: Uint8Array): Map<string, LayerWeights> {
  const reader = new NcnnBinReader(bin);
  const out = new Map<string, LayerWeights>();
  for (const l of graph.layers) {
    if (l.type === 'Convolution' || l.type === 'Deconvolution' || l.type === 'InnerProduct') {
      const outC = paramInt(l, 0, 0);
      const wsize = paramInt(l, l.type === 'InnerProduct' ? 2 : 6, 0);
      const biasTerm = paramInt(l, l.type === 'InnerProduct' ? 1 : 5, 0);
      const weight = reader.readTagged(wsize);
      const bias = biasTerm ? reader.readRaw(outC) : undefined;
      out.set(l.name, bias ? { weight, bias } : { weight });
    }
  }
  if (reader.remaining !== 0) {
    throw new UnsupportedGraphError(
      `weights file has ${reader.remaining} unread bytes: graph/weights mismatch`,
    );
  }
  return out;
}

export interface BlobInput {
  blob: string;
  name: string;
  /** channel count; spatial inputs get symbolic H/W, vectors are [1,C,1,1] */
  channels: number;
  vector: boolean;
  /** fed as float16 (half the memory of a cached feature) and cast to float in the graph */
  half?: boolean;
}

export interface VariantSpec {
  name: string;
  /** `half`: returned as float16 (cast in the graph) */
  outputs: Array<{ blob: string; name: string; half?: boolean }>;
  overrides?: BlobInput[];
  /** multiply the last SE block's output by a scalar graph input `alpha` */
  alpha?: boolean;
  /**
   * also output the per-channel sum of `blob` over rows/columns
   * [own_start, own_end) (int64 [2] inputs): a tile's share of an SE mean,
   * summed by onnxruntime instead of in JS
   */
  ownedSum?: { blob: string; name: string };
}

export const IMAGE_INPUT = 'input';
export const ALPHA_INPUT = 'alpha';
export const OWN_START = 'own_start';
export const OWN_END = 'own_end';

const INT64_MAX = 2 ** 62;

/** A convolution's or deconvolution's kernel, dilations, strides, pads and (deconvolution) output padding. */
interface KernelGeometry {
  kh: number;
  kw: number;
  dh: number;
  dw: number;
  sh: number;
  sw: number;
  pt: number;
  pl: number;
  pb: number;
  pr: number;
  opr: number;
  opb: number;
}

/**
 * Whether a deconvolution's bias can ride in its multiply, on a channel of ones (see convLike):
 * the kernel tiles the output with no overlap, gap, padding or output padding.
 */
function biasInGemm(g: KernelGeometry): boolean {
  return (
    g.kh === g.sh &&
    g.kw === g.sw &&
    g.dh === 1 &&
    g.dw === 1 &&
    g.pt === 0 &&
    g.pl === 0 &&
    g.pb === 0 &&
    g.pr === 0 &&
    g.opr === 0 &&
    g.opb === 0
  );
}

/** a 0-d int64 initializer (Range's bounds, a Gather's single index) */
const int64Scalar = (name: string, value: number): OnnxTensor => ({
  ...int64Tensor(name, [value]),
  dims: [],
});

export function buildOnnxGraph(
  graph: NcnnGraph,
  weights: Map<string, LayerWeights>,
  spec: VariantSpec,
): OnnxGraph {
  const alias = blobAliases(graph);
  const canon = (b: string): string => alias.get(b) ?? b;
  const overrides = new Map((spec.overrides ?? []).map((o) => [canon(o.blob), o]));
  const producers = new Map<string, NcnnLayer>();
  for (const l of graph.layers) if (l.type !== 'Split') for (const t of l.tops) producers.set(canon(t), l);

  // Backward reachability from the outputs, stopping at overridden blobs.
  const needed = new Set<NcnnLayer>();
  const usedOverrides = new Set<string>();
  const visit = (blob: string): void => {
    const b = canon(blob);
    if (overrides.has(b)) {
      usedOverrides.add(b);
      return;
    }
    const p = producers.get(b);
    if (!p) throw new UnsupportedGraphError(`no producer for blob ${blob}`);
    if (needed.has(p)) return;
    needed.add(p);
    for (const bottom of p.bottoms) visit(bottom);
  };
  for (const o of spec.outputs) visit(o.blob);
  if (spec.ownedSum) visit(spec.ownedSum.blob);

  let alphaTarget: string | undefined;
  if (spec.alpha) {
    const se = findSeBlocks(graph);
    // Graphs without SE blocks simply get no alpha input.
    alphaTarget = se.length ? se[se.length - 1]!.mulOutput : undefined;
  }

  const nodes: OnnxNode[] = [];
  const inits: OnnxTensor[] = [];
  const inputs: OnnxValueInfo[] = [];
  const vectors = new Set<string>();
  // Blob name as seen by consumers (alpha redirects consumers of the scaled blob).
  const ref = (blob: string): string => {
    const b = canon(blob);
    const o = overrides.get(b);
    if (o) return o.half ? `${o.name}_f32` : o.name;
    return b === alphaTarget ? `b_${b}_alpha` : `b_${b}`;
  };
  const out = (l: NcnnLayer): string => `b_${canon(l.tops[0]!)}`;
  let alphaUsed = false;

  const activation = (l: NcnnLayer, pre: string, post: string): void => {
    const type = paramInt(l, 9, 0);
    const args = paramArray(l, 10, []);
    if (type === 0) nodes.push({ opType: 'Identity', inputs: [pre], outputs: [post] });
    else if (type === 1) nodes.push({ opType: 'Relu', inputs: [pre], outputs: [post] });
    else if (type === 2) {
      nodes.push({
        opType: 'LeakyRelu',
        inputs: [pre],
        outputs: [post],
        attrs: { alpha: { float: args[0] ?? 0 } },
      });
    } else if (type === 3) {
      inits.push(floatTensor(`${l.name}_min`, [], Float32Array.of(args[0] ?? 0)));
      inits.push(floatTensor(`${l.name}_max`, [], Float32Array.of(args[1] ?? 0)));
      nodes.push({ opType: 'Clip', inputs: [pre, `${l.name}_min`, `${l.name}_max`], outputs: [post] });
    } else if (type === 4) nodes.push({ opType: 'Sigmoid', inputs: [pre], outputs: [post] });
    else throw new UnsupportedGraphError(`${l.name}: activation type ${type} not supported`);
  };

  /**
   * A strided Deconvolution as its sub-pixel equivalent: one Conv that computes
   * every output phase (stride^2 x outC channels, T = ceil(k / stride) taps per
   * axis), DepthToSpace, then a Slice for the padding. Same sums, but onnxruntime
   * runs it with its blocked convolution kernels (activation fused) instead of
   * ConvTranspose's gemm + col2im, which made the 4x graph's 4x4 deconvolution
   * its slowest layer (89 of 297 ms on a 198 px tile).
   * Returns false when the layer does not fit this form (kept as ConvTranspose).
   */
  const subPixelDeconv = (
    l: NcnnLayer,
    w: LayerWeights,
    g: KernelGeometry & { outC: number; inC: number },
  ): boolean => {
    const s = g.sh;
    if (s < 2 || g.sw !== s || g.dh !== 1 || g.dw !== 1) return false;
    // kernel == stride (no overlap) gains nothing: the shuffle costs what col2im did. A 64->64
    // 2x2 stride-2 layer with its LeakyRelu on 160^2 / 300^2 inputs, 2 threads: ConvTranspose
    // 18.4 / 78.2 ms, a 1x1 Conv to 256 channels then DepthToSpace 22.4 / 103.4 ms, that Conv
    // alone 16.1 / 69.2 (AMD EPYC family 26, AVX-512).
    if (g.kh <= s && g.kw <= s) return false;
    if (paramInt(l, 20, 0) || paramInt(l, 21, 0)) return false;
    const th = Math.ceil(g.kh / s);
    const tw = Math.ceil(g.kw / s);
    // Cropped away at the end of the full (un-padded) output, per axis.
    const cutBottom = th * s - g.kh + g.pb - g.opb;
    const cutRight = tw * s - g.kw + g.pr - g.opr;
    if (cutBottom < 0 || cutRight < 0) return false;
    const { outC, inC, kh, kw } = g;
    const phases = s * s;
    const wdata = new Float32Array(phases * outC * inC * th * tw);
    // ncnn weight [out][in][kh][kw]; phase (ry, rx) tap (ty, tx) reads kernel
    // position ((T-1-ty)*s + ry, (T-1-tx)*s + rx); DCR channel order for DepthToSpace.
    for (let ry = 0; ry < s; ry++)
      for (let rx = 0; rx < s; rx++)
        for (let c = 0; c < outC; c++)
          for (let i = 0; i < inC; i++)
            for (let ty = 0; ty < th; ty++)
              for (let tx = 0; tx < tw; tx++) {
                const ky = (th - 1 - ty) * s + ry;
                const kx = (tw - 1 - tx) * s + rx;
                if (ky >= kh || kx >= kw) continue;
                const o = (((ry * s + rx) * outC + c) * inC + i) * th * tw + ty * tw + tx;
                wdata[o] = w.weight[((c * inC + i) * kh + ky) * kw + kx]!;
              }
    inits.push(floatTensor(`${l.name}_w`, [phases * outC, inC, th, tw], wdata));
    const ins = [ref(l.bottoms[0]!), `${l.name}_w`];
    if (w.bias) {
      const bias = new Float32Array(phases * outC);
      for (let r = 0; r < phases; r++) bias.set(w.bias, r * outC);
      inits.push(floatTensor(`${l.name}_b`, [phases * outC], bias));
      ins.push(`${l.name}_b`);
    }
    const conv = `${out(l)}_phases`;
    nodes.push({
      opType: 'Conv',
      name: l.name,
      inputs: ins,
      outputs: [`${conv}_pre`],
      attrs: {
        kernel_shape: [th, tw],
        strides: [1, 1],
        dilations: [1, 1],
        pads: [th - 1, tw - 1, th - 1, tw - 1],
      },
    });
    // Element-wise activation commutes with the pixel shuffle: keep it next to the Conv so it fuses.
    activation(l, `${conv}_pre`, conv);
    const crop = g.pt || g.pl || cutBottom || cutRight;
    const shuffled = crop ? `${out(l)}_full` : out(l);
    nodes.push({
      opType: 'DepthToSpace',
      inputs: [conv],
      outputs: [shuffled],
      attrs: { blocksize: s, mode: 'DCR' },
    });
    if (crop) {
      inits.push(int64Tensor(`${l.name}_starts`, [g.pt, g.pl]));
      inits.push(
        int64Tensor(`${l.name}_ends`, [cutBottom ? -cutBottom : INT64_MAX, cutRight ? -cutRight : INT64_MAX]),
      );
      inits.push(int64Tensor(`${l.name}_axes`, [2, 3]));
      nodes.push({
        opType: 'Slice',
        inputs: [shuffled, `${l.name}_starts`, `${l.name}_ends`, `${l.name}_axes`],
        outputs: [out(l)],
      });
    }
    return true;
  };

  const convLike = (l: NcnnLayer, transpose: boolean): void => {
    let w = weights.get(l.name);
    if (!w) throw new UnsupportedGraphError(`${l.name}: no weights`);
    const outC = paramInt(l, 0, 0);
    const kw = paramInt(l, 1, 0);
    const kh = paramInt(l, 11, kw);
    const dw = paramInt(l, 2, 1);
    const dh = paramInt(l, 12, dw);
    const sw = paramInt(l, 3, 1);
    const sh = paramInt(l, 13, sw);
    const pl = paramInt(l, 4, 0);
    const pt = paramInt(l, 14, pl);
    const pr = paramInt(l, 15, pl);
    const pb = paramInt(l, 16, pt);
    if (pl < 0 || pt < 0)
      throw new UnsupportedGraphError(`${l.name}: automatic (SAME) padding not supported`);
    if (paramInt(l, 8, 0) !== 0) throw new UnsupportedGraphError(`${l.name}: int8 convolution not supported`);
    const inC = w.weight.length / (outC * kh * kw);
    if (!Number.isInteger(inC)) throw new UnsupportedGraphError(`${l.name}: weight size mismatch`);
    const opr = transpose ? paramInt(l, 18, 0) : 0;
    const opb = transpose ? paramInt(l, 19, opr) : 0;
    const geometry: KernelGeometry = { kh, kw, dh, dw, sh, sw, pt, pl, pb, pr, opr, opb };
    if (transpose && subPixelDeconv(l, w, { ...geometry, outC, inC })) return;
    let wdata = w.weight;
    let dims = [outC, inC, kh, kw];
    if (transpose) {
      // ncnn stores deconvolution weights [out][in][kh][kw]; ONNX wants [in][out][kh][kw].
      const k = kh * kw;
      wdata = new Float32Array(w.weight.length);
      for (let o = 0; o < outC; o++)
        for (let i = 0; i < inC; i++)
          wdata.set(w.weight.subarray((o * inC + i) * k, (o * inC + i + 1) * k), (i * outC + o) * k);
      dims = [inC, outC, kh, kw];
    }
    let input = ref(l.bottoms[0]!);
    if (transpose && w.bias && biasInGemm(geometry)) {
      // A channel of ones joins the input and the bias its weights' last row: onnxruntime's
      // ConvTranspose adds the bias in a pass of one thread over its whole output after the
      // col2im, which the multiply (on every thread) then does instead. Exact only without
      // overlap, padding or output padding: every output pixel takes one input pixel, so the bias
      // once. The 2x graph's three upsampling layers over a 2 MP job's 32 tiles: 0.51 / 0.97 /
      // 1.37 s with the Pad against 0.52 / 1.05 / 1.41 s (AMD EPYC family 25 masked to AVX2).
      const withBias = new Float32Array(wdata.length + outC * kh * kw);
      withBias.set(wdata);
      for (let o = 0; o < outC; o++)
        withBias.fill(w.bias[o]!, wdata.length + o * kh * kw, wdata.length + (o + 1) * kh * kw);
      wdata = withBias;
      dims = [inC + 1, outC, kh, kw];
      inits.push(int64Tensor(`${l.name}_ones_pads`, [0, 0, 0, 0, 0, 1, 0, 0]));
      inits.push(floatTensor(`${l.name}_one`, [], Float32Array.of(1)));
      nodes.push({
        opType: 'Pad',
        inputs: [input, `${l.name}_ones_pads`, `${l.name}_one`],
        outputs: [`${out(l)}_with_ones`],
        attrs: { mode: 'constant' },
      });
      input = `${out(l)}_with_ones`;
      w = { weight: w.weight };
    }
    inits.push(floatTensor(`${l.name}_w`, dims, wdata));
    const ins = [input, `${l.name}_w`];
    if (w.bias) {
      inits.push(floatTensor(`${l.name}_b`, [outC], w.bias));
      ins.push(`${l.name}_b`);
    }
    const attrs: OnnxNode['attrs'] = {
      kernel_shape: [kh, kw],
      strides: [sh, sw],
      dilations: [dh, dw],
      pads: [pt, pl, pb, pr],
    };
    if (transpose) {
      if (opr || opb) attrs['output_padding'] = [opb, opr];
      if (paramInt(l, 20, 0) || paramInt(l, 21, 0))
        throw new UnsupportedGraphError(`${l.name}: fixed output size`);
    }
    const pre = `${out(l)}_pre`;
    nodes.push({
      opType: transpose ? 'ConvTranspose' : 'Conv',
      name: l.name,
      inputs: ins,
      outputs: [pre],
      attrs,
    });
    activation(l, pre, out(l));
  };

  for (const l of graph.layers) {
    if (!needed.has(l)) continue;
    switch (l.type) {
      case 'Input':
        inputs.push({
          name: IMAGE_INPUT,
          elemType: TensorType.FLOAT,
          shape: [1, 'channels', 'height', 'width'],
        });
        nodes.push({ opType: 'Identity', inputs: [IMAGE_INPUT], outputs: [out(l)] });
        break;
      case 'Convolution':
        convLike(l, false);
        break;
      case 'Deconvolution':
        convLike(l, true);
        break;
      case 'InnerProduct': {
        // After global pooling the blob is a [1,C,1,1] tensor: a 1x1 convolution is the dense layer.
        if (!vectors.has(canon(l.bottoms[0]!)) && !overrides.get(canon(l.bottoms[0]!))?.vector) {
          throw new UnsupportedGraphError(`${l.name}: InnerProduct on a spatial blob not supported`);
        }
        const w = weights.get(l.name)!;
        const outC = paramInt(l, 0, 0);
        const inC = w.weight.length / outC;
        inits.push(floatTensor(`${l.name}_w`, [outC, inC, 1, 1], w.weight));
        const ins = [ref(l.bottoms[0]!), `${l.name}_w`];
        if (w.bias) {
          inits.push(floatTensor(`${l.name}_b`, [outC], w.bias));
          ins.push(`${l.name}_b`);
        }
        const pre = `${out(l)}_pre`;
        nodes.push({
          opType: 'Conv',
          name: l.name,
          inputs: ins,
          outputs: [pre],
          attrs: { kernel_shape: [1, 1] },
        });
        activation(l, pre, out(l));
        vectors.add(canon(l.tops[0]!));
        break;
      }
      case 'Pooling': {
        const type = paramInt(l, 0, 0);
        if (paramInt(l, 4, 0) === 1) {
          nodes.push({
            opType: type === 1 ? 'GlobalAveragePool' : 'GlobalMaxPool',
            inputs: [ref(l.bottoms[0]!)],
            outputs: [out(l)],
          });
          vectors.add(canon(l.tops[0]!));
        } else {
          const k = paramInt(l, 1, 0);
          const s = paramInt(l, 2, 1);
          const p = paramInt(l, 3, 0);
          if (p !== 0) throw new UnsupportedGraphError(`${l.name}: padded pooling not supported`);
          nodes.push({
            opType: type === 1 ? 'AveragePool' : 'MaxPool',
            inputs: [ref(l.bottoms[0]!)],
            outputs: [out(l)],
            attrs: { kernel_shape: [k, k], strides: [s, s] },
          });
        }
        break;
      }
      case 'BinaryOp': {
        const op = paramInt(l, 0, 0);
        const ops = ['Add', 'Sub', 'Mul', 'Div', 'Max', 'Min'];
        const opType = ops[op];
        if (!opType) throw new UnsupportedGraphError(`${l.name}: BinaryOp ${op} not supported`);
        let b: string;
        if (paramInt(l, 1, 0) === 1) {
          b = `${l.name}_scalar`;
          inits.push(floatTensor(b, [], Float32Array.of(paramInt(l, 2, 0))));
        } else b = ref(l.bottoms[1]!);
        nodes.push({ opType, name: l.name, inputs: [ref(l.bottoms[0]!), b], outputs: [out(l)] });
        if (l.bottoms.every((x) => vectors.has(canon(x)))) vectors.add(canon(l.tops[0]!));
        break;
      }
      case 'Crop': {
        const starts = paramArray(l, 9, []);
        const ends = paramArray(l, 10, []);
        const axes = paramArray(l, 11, []);
        if (!starts.length)
          throw new UnsupportedGraphError(`${l.name}: only starts/ends/axes Crop is supported`);
        // ncnn axes count without the batch axis; ends of 0 mean "to the end".
        const onnxAxes = axes.map((a) => (a < 0 ? a : a + 1));
        inits.push(int64Tensor(`${l.name}_starts`, starts));
        inits.push(
          int64Tensor(
            `${l.name}_ends`,
            ends.map((e) => (e === 0 ? INT64_MAX : e)),
          ),
        );
        inits.push(int64Tensor(`${l.name}_axes`, onnxAxes));
        nodes.push({
          opType: 'Slice',
          name: l.name,
          inputs: [ref(l.bottoms[0]!), `${l.name}_starts`, `${l.name}_ends`, `${l.name}_axes`],
          outputs: [out(l)],
        });
        break;
      }
      case 'PixelShuffle': {
        const mode = paramInt(l, 1, 0);
        nodes.push({
          opType: 'DepthToSpace',
          name: l.name,
          inputs: [ref(l.bottoms[0]!)],
          outputs: [out(l)],
          attrs: { blocksize: paramInt(l, 0, 1), mode: mode === 0 ? 'CRD' : 'DCR' },
        });
        break;
      }
      case 'ReLU': {
        const slope = paramInt(l, 0, 0);
        nodes.push(
          slope === 0
            ? { opType: 'Relu', inputs: [ref(l.bottoms[0]!)], outputs: [out(l)] }
            : {
                opType: 'LeakyRelu',
                inputs: [ref(l.bottoms[0]!)],
                outputs: [out(l)],
                attrs: { alpha: { float: slope } },
              },
        );
        break;
      }
      case 'Sigmoid':
        nodes.push({ opType: 'Sigmoid', inputs: [ref(l.bottoms[0]!)], outputs: [out(l)] });
        break;
      case 'Concat': {
        const axis = paramInt(l, 0, 0);
        nodes.push({
          opType: 'Concat',
          inputs: l.bottoms.map(ref),
          outputs: [out(l)],
          attrs: { axis: axis < 0 ? axis : axis + 1 },
        });
        break;
      }
      default:
        throw new UnsupportedGraphError(`layer type ${l.type} (${l.name}) is not supported`);
    }
    if (alphaTarget && canon(l.tops[0]!) === alphaTarget) {
      nodes.push({ opType: 'Mul', inputs: [out(l), ALPHA_INPUT], outputs: [`${out(l)}_alpha`] });
      alphaUsed = true;
    }
  }

  for (const o of spec.overrides ?? []) {
    if (!usedOverrides.has(canon(o.blob))) continue;
    inputs.push({
      name: o.name,
      elemType: o.half ? TensorType.FLOAT16 : TensorType.FLOAT,
      shape: o.vector ? [1, o.channels, 1, 1] : [1, o.channels, `${o.name}_h`, `${o.name}_w`],
    });
    if (o.half)
      nodes.unshift({
        opType: 'Cast',
        inputs: [o.name],
        outputs: [`${o.name}_f32`],
        attrs: { to: TensorType.FLOAT },
      });
  }
  if (alphaUsed) inputs.push({ name: ALPHA_INPUT, elemType: TensorType.FLOAT, shape: [] });
  const sumOutputs: OnnxValueInfo[] = [];
  if (spec.ownedSum) {
    const { blob, name } = spec.ownedSum;
    inputs.push({ name: OWN_START, elemType: TensorType.INT64, shape: [2] });
    inputs.push({ name: OWN_END, elemType: TensorType.INT64, shape: [2] });
    // The owned part's sums without copying it out (a Slice is one thread's copy of the map): the
    // map times a 0/1 mask of the owned columns (MatMul reads it once, on every thread), then the
    // per-row sums times a mask of the owned rows. Over a 2 MP 2x job's 32 tiles and four stages,
    // crops and sums took 0.37 s, masks and MatMul 0.16 s (AMD EPYC family 25 masked to AVX2).
    const map = ref(blob);
    inits.push(int64Tensor(`${name}_axes`, [2, 3]));
    inits.push(int64Scalar(`${name}_zero`, 0));
    inits.push(int64Scalar(`${name}_one`, 1));
    inits.push(int64Tensor(`${name}_last`, [1]));
    nodes.push({ opType: 'Shape', inputs: [map], outputs: [`${name}_shape`] });
    const mask = (axis: 0 | 1): string => {
      const p = `${name}_${axis ? 'cols' : 'rows'}`;
      inits.push(int64Tensor(`${p}_at`, [axis]));
      inits.push(int64Scalar(`${p}_dim`, 2 + axis));
      nodes.push({
        opType: 'Gather',
        inputs: [`${name}_shape`, `${p}_dim`],
        outputs: [`${p}_n`],
        attrs: { axis: 0 },
      });
      nodes.push({
        opType: 'Range',
        inputs: [`${name}_zero`, `${p}_n`, `${name}_one`],
        outputs: [`${p}_index`],
      });
      nodes.push({
        opType: 'Gather',
        inputs: [OWN_START, `${p}_at`],
        outputs: [`${p}_start`],
        attrs: { axis: 0 },
      });
      nodes.push({
        opType: 'Gather',
        inputs: [OWN_END, `${p}_at`],
        outputs: [`${p}_end`],
        attrs: { axis: 0 },
      });
      nodes.push({ opType: 'GreaterOrEqual', inputs: [`${p}_index`, `${p}_start`], outputs: [`${p}_from`] });
      nodes.push({ opType: 'Less', inputs: [`${p}_index`, `${p}_end`], outputs: [`${p}_to`] });
      nodes.push({ opType: 'And', inputs: [`${p}_from`, `${p}_to`], outputs: [`${p}_owned`] });
      nodes.push({
        opType: 'Cast',
        inputs: [`${p}_owned`],
        outputs: [`${p}_01`],
        attrs: { to: TensorType.FLOAT },
      });
      nodes.push({ opType: 'Unsqueeze', inputs: [`${p}_01`, `${name}_last`], outputs: [`${p}_mask`] });
      return `${p}_mask`;
    };
    const cols = mask(1);
    const rows = mask(0);
    nodes.push({ opType: 'MatMul', inputs: [map, cols], outputs: [`${name}_row_sums`] });
    nodes.push({ opType: 'Mul', inputs: [`${name}_row_sums`, rows], outputs: [`${name}_owned_rows`] });
    nodes.push({
      opType: 'ReduceSum',
      inputs: [`${name}_owned_rows`, `${name}_axes`],
      outputs: [name],
      attrs: { keepdims: 0 },
    });
    sumOutputs.push({ name, elemType: TensorType.FLOAT, shape: [1, `${name}_c`] });
  }

  const outputs: OnnxValueInfo[] = spec.outputs.map((o) => {
    nodes.push(
      o.half
        ? { opType: 'Cast', inputs: [ref(o.blob)], outputs: [o.name], attrs: { to: TensorType.FLOAT16 } }
        : { opType: 'Identity', inputs: [ref(o.blob)], outputs: [o.name] },
    );
    // Symbolic dims: onnxruntime infers the real shapes.
    return {
      name: o.name,
      elemType: o.half ? TensorType.FLOAT16 : TensorType.FLOAT,
      shape: [1, `${o.name}_c`, `${o.name}_h`, `${o.name}_w`],
    };
  });
  if (outputs.some((o) => o.name === IMAGE_INPUT))
    throw new UnsupportedGraphError('output name clashes with input');
  return { name: spec.name, nodes, initializers: inits, inputs, outputs: [...outputs, ...sumOutputs] };
}
