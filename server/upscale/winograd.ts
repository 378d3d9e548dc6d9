// Winograd F(m×m, 3×3) convolutions as ONNX subgraphs. The converter rewrites the wide layers
// this way on CPUs where it pays (AVX2 kernels, Zen 4's half-width AVX-512: see
// wideConvolutionPlan, server/upscale/converter.ts and cpu-vector-width.ts); elsewhere it keeps
// every convolution direct. What measures it: scripts/bench-winograd-layers.ts (each layer alone,
// direct against F(2,3)/F(4,3)/F(6,3)); what checks it: tests/server/upscale/winograd.test.ts
// (exactness, and whole converted graphs rewritten by withWinogradLayers against the direct ones).
//
// A valid (unpadded) 3×3 stride-1 convolution of a [1, C, H, W] map is computed
// on m×m output tiles, each read from an α×α input tile (α = m + 2):
//   1. input transform V = Bᵀ d B: one depthwise Conv (a group per channel, α²
//      fixed α×α kernels each, stride m) gives [1, C·α², th, tw], the bytes of
//      [C, α², T]; a Transpose, which onnxruntime folds into the product, makes
//      it [α², C, T];
//   2. one batched MatMul against U = G g Gᵀ (the weights transformed once,
//      at conversion): [α², K, C] × [α², C, T] -> [α², K, T];
//   3. output transform Y = Aᵀ M A, rows then columns: Aᵀ [m, α] × M [α, α·K·T]
//      gives Z [m, α, K·T]; each Zᵢᵀ [K·T, α] × A [α, m] gives [m, K, th, tw·m],
//      where only whole rows of tw·m floats are out of place, so one Transpose
//      of rows makes the [1, K, th·m, tw·m] map; then a Slice to the real
//      (H-2)×(W-2) size.
// Both transforms' arithmetic runs on every core; only the row Transpose (block
// copies) and the Slice stay on one thread. The forms before them, kept for
// measuring (scripts/bench-winograd-layers.ts WG_IN / WG_OUT), did worse: the
// channels folded into the batch for one 1-channel Conv, which onnxruntime runs
// in its blocked layout and then reorders back, and one MatMul by Aᵀ ⊗ Aᵀ then
// DepthToSpace, a one-thread shuffle. The six wide layers of up2x-conservative,
// each alone at its size in a 256 px tile, summed wall ms (median of 15; AMD
// EPYC family 25 model 17 masked to AVX2, 2 cores): direct 430, the old forms
// 393, these 362 (the depthwise input alone 370, the separable output alone
// 368). A whole 2 MP 2x job took 0.88-0.93 of the old forms' wall time.
// Measured there and not kept: the depthwise input as two separable depthwise
// Convs (a third of the multiplications, the same time: it is bound by memory,
// not arithmetic), and F(6,3) on the wide layers (328 ms against 329 for F(4,3)).
// The transform's Conv pads m-1 zero rows/columns at the bottom/right, so the
// tiles cover any size without shape arithmetic; only the final Slice reads the
// input's shape. Multiplications per output pixel and output channel: 9C direct,
// α²C/m² here (4C for F(2,3), 2.25C for F(4,3), 1.78C for F(6,3)), plus the
// transforms; larger m loses more precision (fp32 rounding grows with the
// transform's coefficients).

import {
  type OnnxGraph,
  type OnnxNode,
  type OnnxTensor,
  TensorType,
  floatTensor,
  int64Tensor,
} from './onnx-proto.js';

export type WinogradTile = 2 | 4 | 6;
export const WINOGRAD_TILES: readonly WinogradTile[] = [2, 4, 6];

export interface WinogradMatrices {
  m: number;
  alpha: number;
  /** m × α, row-major */
  at: Float64Array;
  /** α × 3 */
  g: Float64Array;
  /** α × α */
  bt: Float64Array;
}

/** Interpolation points (plus the point at infinity) per output tile size. */
const POINTS: Record<WinogradTile, number[]> = {
  2: [0, 1, -1],
  4: [0, 1, -1, 2, -2],
  6: [0, 1, -1, 2, -2, 0.5, -0.5],
};

/** Solves the square system a·x = b (n × n, row-major) by Gaussian elimination with partial pivoting. */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r * n + col]!) > Math.abs(m[piv * n + col]!)) piv = r;
    if (Math.abs(m[piv * n + col]!) < 1e-12) throw new Error('singular Winograd system');
    if (piv !== col) {
      for (let c = 0; c < n; c++) [m[col * n + c], m[piv * n + c]] = [m[piv * n + c]!, m[col * n + c]!];
      [x[col], x[piv]] = [x[piv]!, x[col]!];
    }
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r * n + col]! / m[col * n + col]!;
      if (f === 0) continue;
      for (let c = col; c < n; c++) m[r * n + c]! -= f * m[col * n + c]!;
      x[r]! -= f * x[col]!;
    }
  }
  for (let r = 0; r < n; r++) x[r]! /= m[r * n + r]!;
  return x;
}

/**
 * Toom-Cook matrices of F(m, 3): Aᵀ is the Vandermonde matrix of the points
 * (plus infinity), G the filter transform scaled by the points' Lagrange
 * denominators, and Bᵀ is solved from the identity
 * Σ_j Aᵀ[i][j] G[j][k] Bᵀ[j][l] = [l = i + k] (least squares, exact here).
 */
export function winogradMatrices(m: WinogradTile): WinogradMatrices {
  const r = 3;
  const pts = POINTS[m];
  const n = pts.length; // finite points
  const alpha = n + 1;
  const at = new Float64Array(m * alpha);
  const g = new Float64Array(alpha * r);
  for (let j = 0; j < n; j++) {
    let f = 1;
    for (let l = 0; l < n; l++) if (l !== j) f *= pts[j]! - pts[l]!;
    for (let i = 0; i < m; i++) at[i * alpha + j] = pts[j]! ** i;
    for (let k = 0; k < r; k++) g[j * r + k] = pts[j]! ** k / f;
  }
  at[(m - 1) * alpha + n] = 1;
  g[n * r + r - 1] = 1;
  // Equations (i, k) for each input position l; unknowns Bᵀ[·][l].
  const rows = m * r;
  const coef = new Float64Array(rows * alpha);
  for (let i = 0; i < m; i++)
    for (let k = 0; k < r; k++)
      for (let j = 0; j < alpha; j++) coef[(i * r + k) * alpha + j] = at[i * alpha + j]! * g[j * r + k]!;
  const normal = new Float64Array(alpha * alpha);
  for (let a = 0; a < alpha; a++)
    for (let b = 0; b < alpha; b++) {
      let s = 0;
      for (let q = 0; q < rows; q++) s += coef[q * alpha + a]! * coef[q * alpha + b]!;
      normal[a * alpha + b] = s;
    }
  const bt = new Float64Array(alpha * alpha);
  for (let l = 0; l < alpha; l++) {
    const rhs = new Float64Array(alpha);
    for (let i = 0; i < m; i++)
      for (let k = 0; k < r; k++) {
        if (l !== i + k) continue;
        for (let j = 0; j < alpha; j++) rhs[j]! += coef[(i * r + k) * alpha + j]!;
      }
    const col = solve(normal, rhs, alpha);
    for (let j = 0; j < alpha; j++) bt[j * alpha + l] = Math.abs(col[j]!) < 1e-12 ? 0 : col[j]!;
  }
  // Check the identity exactly (to rounding): a wrong matrix must never reach a graph.
  for (let i = 0; i < m; i++)
    for (let k = 0; k < r; k++)
      for (let l = 0; l < alpha; l++) {
        let s = 0;
        for (let j = 0; j < alpha; j++) s += at[i * alpha + j]! * g[j * r + k]! * bt[j * alpha + l]!;
        if (Math.abs(s - (l === i + k ? 1 : 0)) > 1e-9) throw new Error(`F(${m},3) transform does not hold`);
      }
  return { m, alpha, at, g, bt };
}

export interface WinogradConv {
  /** node and initializer name prefix */
  name: string;
  input: string;
  /** the convolution's output, before bias and activation are applied by the caller */
  output: string;
  /** ncnn/ONNX layout [outC][inC][3][3] */
  weight: Float32Array;
  bias?: Float32Array;
  inC: number;
  outC: number;
  m: WinogradTile;
  /**
   * a depthwise α×α Conv (default); one α×α Conv over the channels as a batch; or that as two
   * separable Convs
   */
  inputTransform?: 'depthwise' | 'conv' | 'separable';
  /** rows, then columns into place (default); MatMul + DepthToSpace; or Transpose + ConvTranspose */
  outputTransform?: 'separable' | 'shuffle' | 'deconv';
}

/**
 * Emits the nodes of a Winograd convolution (valid padding, stride 1,
 * dilation 1) into `nodes` and its constants into `inits`; the output includes
 * the bias.
 */
export function emitWinogradConv(c: WinogradConv, nodes: OnnxNode[], inits: OnnxTensor[]): void {
  const { name, m, inC, outC } = c;
  const { alpha, at, g, bt } = winogradMatrices(m);
  const a2 = alpha * alpha;
  // 1. input transform: α² fixed α×α kernels
  const bin = new Float32Array(a2 * alpha * alpha);
  for (let a = 0; a < alpha; a++)
    for (let b = 0; b < alpha; b++)
      for (let u = 0; u < alpha; u++)
        for (let v = 0; v < alpha; v++)
          bin[((a * alpha + b) * alpha + u) * alpha + v] = bt[a * alpha + u]! * bt[b * alpha + v]!;
  const inputTransform = c.inputTransform ?? 'depthwise';
  // the other forms fold the channels into the batch: [C, 1, H, W], a free Reshape
  if (inputTransform !== 'depthwise') {
    inits.push(int64Tensor(`${name}_wg_cb`, [-1, 1, 0, 0]));
    nodes.push({ opType: 'Reshape', inputs: [c.input, `${name}_wg_cb`], outputs: [`${name}_wg_x`] });
  }
  if (inputTransform === 'depthwise') {
    // one group per channel, α² outputs each: [1, C·α², th, tw], the same bytes as [C, α², th, tw].
    // The kernels are the same for every group: a Tile of one set, which onnxruntime folds into a
    // constant when it opens the session, so the file holds them once.
    inits.push(floatTensor(`${name}_wg_bt`, [a2, 1, alpha, alpha], bin));
    inits.push(int64Tensor(`${name}_wg_btn`, [inC, 1, 1, 1]));
    nodes.push({
      opType: 'Tile',
      inputs: [`${name}_wg_bt`, `${name}_wg_btn`],
      outputs: [`${name}_wg_btg`],
    });
    nodes.push({
      opType: 'Conv',
      name: `${name}_wg_in`,
      inputs: [c.input, `${name}_wg_btg`],
      outputs: [`${name}_wg_v4`],
      attrs: { kernel_shape: [alpha, alpha], strides: [m, m], pads: [0, 0, m - 1, m - 1], group: inC },
    });
  } else if (inputTransform === 'conv') {
    inits.push(floatTensor(`${name}_wg_bt`, [a2, 1, alpha, alpha], bin));
    nodes.push({
      opType: 'Conv',
      name: `${name}_wg_in`,
      inputs: [`${name}_wg_x`, `${name}_wg_bt`],
      outputs: [`${name}_wg_v4`],
      attrs: { kernel_shape: [alpha, alpha], strides: [m, m], pads: [0, 0, m - 1, m - 1] },
    });
  } else {
    // separable: rows (α×1, stride m), then columns (1×α, stride m) of each row result
    const bv = new Float32Array(alpha * alpha);
    for (let a = 0; a < alpha; a++) for (let u2 = 0; u2 < alpha; u2++) bv[a * alpha + u2] = bt[a * alpha + u2]!;
    inits.push(floatTensor(`${name}_wg_btr`, [alpha, 1, alpha, 1], bv));
    inits.push(floatTensor(`${name}_wg_btc`, [alpha, 1, 1, alpha], bv));
    nodes.push({
      opType: 'Conv',
      name: `${name}_wg_inr`,
      inputs: [`${name}_wg_x`, `${name}_wg_btr`],
      outputs: [`${name}_wg_r`],
      attrs: { kernel_shape: [alpha, 1], strides: [m, 1], pads: [0, 0, m - 1, 0] },
    });
    inits.push(int64Tensor(`${name}_wg_rb`, [-1, 1, 0, 0]));
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_r`, `${name}_wg_rb`], outputs: [`${name}_wg_r1`] });
    nodes.push({
      opType: 'Conv',
      name: `${name}_wg_inc`,
      inputs: [`${name}_wg_r1`, `${name}_wg_btc`],
      outputs: [`${name}_wg_v4`],
      attrs: { kernel_shape: [1, alpha], strides: [1, m], pads: [0, 0, 0, m - 1] },
    });
  }
  inits.push(int64Tensor(`${name}_wg_vs`, [inC, a2, -1]));
  nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_v4`, `${name}_wg_vs`], outputs: [`${name}_wg_v3`] });
  nodes.push({
    opType: 'Transpose',
    inputs: [`${name}_wg_v3`],
    outputs: [`${name}_wg_v`],
    attrs: { perm: [1, 0, 2] },
  });
  // 2. the batched product against the transformed weights U [α², K, C]
  const u = new Float32Array(a2 * outC * inC);
  const wk = new Float64Array(9);
  for (let o = 0; o < outC; o++)
    for (let i = 0; i < inC; i++) {
      for (let q = 0; q < 9; q++) wk[q] = c.weight[(o * inC + i) * 9 + q]!;
      for (let a = 0; a < alpha; a++)
        for (let b = 0; b < alpha; b++) {
          let s = 0;
          for (let k = 0; k < 3; k++)
            for (let l = 0; l < 3; l++) s += g[a * 3 + k]! * wk[k * 3 + l]! * g[b * 3 + l]!;
          u[((a * alpha + b) * outC + o) * inC + i] = s;
        }
    }
  inits.push(floatTensor(`${name}_wg_u`, [a2, outC, inC], u));
  nodes.push({
    opType: 'MatMul',
    name: `${name}_wg_mm`,
    inputs: [`${name}_wg_u`, `${name}_wg_v`],
    outputs: [`${name}_wg_m`],
  });
  // 3. output transform
  const aout = new Float32Array(m * m * a2);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < m; j++)
      for (let a = 0; a < alpha; a++)
        for (let b = 0; b < alpha; b++)
          aout[(i * m + j) * a2 + a * alpha + b] = at[i * alpha + a]! * at[j * alpha + b]!;
  nodes.push({ opType: 'Shape', inputs: [`${name}_wg_v4`], outputs: [`${name}_wg_vshape`], attrs: { start: 2 } });
  const outputTransform = c.outputTransform ?? 'separable';
  if (outputTransform === 'shuffle') {
    // (Aᵀ ⊗ Aᵀ) [m², α²] × M [α², K·T] = [m², K, T]: DepthToSpace's DCR layout
    inits.push(floatTensor(`${name}_wg_at`, [m * m, a2], aout));
    inits.push(int64Tensor(`${name}_wg_ms`, [a2, -1]));
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_m`, `${name}_wg_ms`], outputs: [`${name}_wg_m2`] });
    nodes.push({
      opType: 'MatMul',
      name: `${name}_wg_out`,
      inputs: [`${name}_wg_at`, `${name}_wg_m2`],
      outputs: [`${name}_wg_y2`],
    });
    inits.push(int64Tensor(`${name}_wg_ys0`, [1, m * m * outC]));
    nodes.push({
      opType: 'Concat',
      inputs: [`${name}_wg_ys0`, `${name}_wg_vshape`],
      outputs: [`${name}_wg_ys`],
      attrs: { axis: 0 },
    });
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_y2`, `${name}_wg_ys`], outputs: [`${name}_wg_y4`] });
    nodes.push({
      opType: 'DepthToSpace',
      inputs: [`${name}_wg_y4`],
      outputs: [`${name}_wg_yt`],
      attrs: { blocksize: m, mode: 'DCR' },
    });
  } else if (outputTransform === 'separable') {
    // rows first: Aᵀ [m, α] × M [α, α·K·T] = Z [i, b, K·T]; then columns with j innermost:
    // Zᵢᵀ [K·T, α] × A [α, m] = [i, K, th, tw·m], so only whole rows of tw·m floats move after.
    const atRows = new Float32Array(m * alpha);
    for (let q = 0; q < m * alpha; q++) atRows[q] = at[q]!;
    const aCols = new Float32Array(alpha * m);
    for (let i = 0; i < m; i++) for (let a = 0; a < alpha; a++) aCols[a * m + i] = at[i * alpha + a]!;
    inits.push(floatTensor(`${name}_wg_atr`, [m, alpha], atRows));
    inits.push(floatTensor(`${name}_wg_ac`, [alpha, m], aCols));
    inits.push(int64Tensor(`${name}_wg_ms`, [alpha, -1]));
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_m`, `${name}_wg_ms`], outputs: [`${name}_wg_m2`] });
    nodes.push({
      opType: 'MatMul',
      name: `${name}_wg_out`,
      inputs: [`${name}_wg_atr`, `${name}_wg_m2`],
      outputs: [`${name}_wg_z`],
    });
    inits.push(int64Tensor(`${name}_wg_zs`, [m, alpha, -1]));
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_z`, `${name}_wg_zs`], outputs: [`${name}_wg_z3`] });
    // onnxruntime folds this Transpose into the MatMul after it (transA)
    nodes.push({
      opType: 'Transpose',
      inputs: [`${name}_wg_z3`],
      outputs: [`${name}_wg_zt`],
      attrs: { perm: [0, 2, 1] },
    });
    nodes.push({
      opType: 'MatMul',
      name: `${name}_wg_outc`,
      inputs: [`${name}_wg_zt`, `${name}_wg_ac`],
      outputs: [`${name}_wg_y3`],
    });
    // [i, K, th, tw·m] -> [K, th, i, tw·m] = [1, K, th·m, tw·m]
    inits.push(int64Tensor(`${name}_wg_s0`, [0]), int64Tensor(`${name}_wg_s1`, [1]));
    nodes.push({
      opType: 'Slice',
      inputs: [`${name}_wg_vshape`, `${name}_wg_s0`, `${name}_wg_s1`],
      outputs: [`${name}_wg_th`],
    });
    inits.push(int64Tensor(`${name}_wg_y4a`, [m, outC]), int64Tensor(`${name}_wg_y4b`, [-1]));
    nodes.push({
      opType: 'Concat',
      inputs: [`${name}_wg_y4a`, `${name}_wg_th`, `${name}_wg_y4b`],
      outputs: [`${name}_wg_y4s`],
      attrs: { axis: 0 },
    });
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_y3`, `${name}_wg_y4s`], outputs: [`${name}_wg_y4`] });
    nodes.push({
      opType: 'Transpose',
      inputs: [`${name}_wg_y4`],
      outputs: [`${name}_wg_y4t`],
      attrs: { perm: [1, 2, 0, 3] },
    });
    inits.push(int64Tensor(`${name}_wg_mm2`, [m, m]), int64Tensor(`${name}_wg_y1a`, [1, outC]));
    nodes.push({ opType: 'Mul', inputs: [`${name}_wg_vshape`, `${name}_wg_mm2`], outputs: [`${name}_wg_hw`] });
    nodes.push({
      opType: 'Concat',
      inputs: [`${name}_wg_y1a`, `${name}_wg_hw`],
      outputs: [`${name}_wg_y1s`],
      attrs: { axis: 0 },
    });
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_y4t`, `${name}_wg_y1s`], outputs: [`${name}_wg_yt`] });
  } else {
    // [K, α², th, tw] (K as the batch) through a ConvTranspose with kernel = stride = m
    nodes.push({
      opType: 'Transpose',
      inputs: [`${name}_wg_m`],
      outputs: [`${name}_wg_mk`],
      attrs: { perm: [1, 0, 2] },
    });
    inits.push(int64Tensor(`${name}_wg_ks0`, [outC, a2]));
    nodes.push({
      opType: 'Concat',
      inputs: [`${name}_wg_ks0`, `${name}_wg_vshape`],
      outputs: [`${name}_wg_ks`],
      attrs: { axis: 0 },
    });
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_mk`, `${name}_wg_ks`], outputs: [`${name}_wg_mk4`] });
    inits.push(floatTensor(`${name}_wg_atk`, [a2, 1, m, m], (() => {
      const t = new Float32Array(a2 * m * m);
      for (let q = 0; q < a2; q++) for (let p = 0; p < m * m; p++) t[q * m * m + p] = aout[p * a2 + q]!;
      return t;
    })()));
    nodes.push({
      opType: 'ConvTranspose',
      name: `${name}_wg_out`,
      inputs: [`${name}_wg_mk4`, `${name}_wg_atk`],
      outputs: [`${name}_wg_yk`],
      attrs: { kernel_shape: [m, m], strides: [m, m] },
    });
    inits.push(int64Tensor(`${name}_wg_ks1`, [1, -1, 0, 0]));
    nodes.push({ opType: 'Reshape', inputs: [`${name}_wg_yk`, `${name}_wg_ks1`], outputs: [`${name}_wg_yt`] });
  }
  // Slice to (H-2)×(W-2)
  nodes.push({ opType: 'Shape', inputs: [c.input], outputs: [`${name}_wg_xshape`], attrs: { start: 2 } });
  inits.push(int64Tensor(`${name}_wg_two`, [2, 2]));
  inits.push(int64Tensor(`${name}_wg_zero`, [0, 0]));
  inits.push(int64Tensor(`${name}_wg_axes`, [2, 3]));
  nodes.push({
    opType: 'Sub',
    inputs: [`${name}_wg_xshape`, `${name}_wg_two`],
    outputs: [`${name}_wg_ends`],
  });
  const sliced = c.bias ? `${name}_wg_nb` : c.output;
  nodes.push({
    opType: 'Slice',
    inputs: [`${name}_wg_yt`, `${name}_wg_zero`, `${name}_wg_ends`, `${name}_wg_axes`],
    outputs: [sliced],
  });
  if (c.bias) {
    inits.push(floatTensor(`${name}_wg_b`, [1, outC, 1, 1], c.bias));
    nodes.push({ opType: 'Add', inputs: [sliced, `${name}_wg_b`], outputs: [c.output] });
  }
}

const isAll = (v: unknown, n: number, value: number): boolean =>
  Array.isArray(v) && v.length === n && v.every((x) => x === value);

/** A valid (unpadded) 3×3 stride-1 convolution, ungrouped, with 4-D weights of `weightDims`. */
function isValid3x3(node: OnnxNode, weightDims: readonly number[] | undefined): boolean {
  const a = node.attrs ?? {};
  return (
    isAll(a['kernel_shape'], 2, 3) &&
    (a['strides'] === undefined || isAll(a['strides'], 2, 1)) &&
    (a['dilations'] === undefined || isAll(a['dilations'], 2, 1)) &&
    (a['pads'] === undefined || isAll(a['pads'], 4, 0)) &&
    (a['group'] === undefined || a['group'] === 1) &&
    weightDims?.length === 4
  );
}

/**
 * A converted graph (server/upscale/graph-builder.ts's output) with the direct Conv nodes named in
 * `plan` (ncnn layer names, which the builder gives their Conv nodes) replaced by Winograd F(m, 3)
 * subgraphs: the same weights and bias, the activation node after each left as it is. Each named
 * node must be a valid (unpadded) 3×3 stride-1 convolution with float weights; the original's
 * weight and bias initializers are dropped once nothing else reads them.
 */
export function withWinogradLayers(graph: OnnxGraph, plan: Readonly<Record<string, WinogradTile>>): OnnxGraph {
  const inits = new Map(graph.initializers.map((t) => [t.name, t]));
  const nodes: OnnxNode[] = [];
  const added: OnnxTensor[] = [];
  const replaced = new Set<string>();
  const rewritten = new Set<string>();
  const floats = (name: string | undefined): Float32Array | undefined => {
    const t = name === undefined ? undefined : inits.get(name);
    if (!t || t.dataType !== TensorType.FLOAT) return undefined;
    // A copy: the tensor's bytes need not be 4-byte aligned.
    return new Float32Array(t.raw.slice().buffer);
  };
  for (const node of graph.nodes) {
    const m = node.name === undefined || node.opType !== 'Conv' ? undefined : plan[node.name];
    if (m === undefined) {
      nodes.push(node);
      continue;
    }
    const name = node.name!;
    const dims = inits.get(node.inputs[1] ?? '')?.dims;
    const weight = floats(node.inputs[1]);
    const bias = node.inputs[2] ? floats(node.inputs[2]) : undefined;
    const valid =
      isValid3x3(node, dims) &&
      weight !== undefined &&
      (node.inputs[2] === undefined || bias !== undefined);
    if (!valid) throw new Error(`${name}: Winograd needs a valid 3x3 stride-1 convolution with float weights`);
    const [outC, inC] = dims as [number, number, number, number];
    const conv: WinogradConv = { name, input: node.inputs[0]!, output: node.outputs[0]!, weight, inC, outC, m };
    emitWinogradConv(bias ? { ...conv, bias } : conv, nodes, added);
    for (const input of node.inputs.slice(1)) replaced.add(input);
    rewritten.add(name);
  }
  const missing = Object.keys(plan).filter((name) => !rewritten.has(name));
  if (missing.length) throw new Error(`no Conv node named ${missing.join(', ')}`);
  const read = new Set(nodes.flatMap((n) => n.inputs));
  return {
    ...graph,
    nodes,
    initializers: [...graph.initializers.filter((t) => !replaced.has(t.name) || read.has(t.name)), ...added],
  };
}

/** The output tile of the wide layers' Winograd convolutions (see wideConvolutionPlan). */
const WIDE_LAYER_TILE: WinogradTile = 4;
/** A 3×3 convolution is wide when its input or output has at least this many channels. */
const WIDE_CHANNELS = 128;

/**
 * The plan for withWinogradLayers where it pays: every valid 3×3 stride-1 convolution with 128
 * channels or more on a side, as F(4,3). Each layer alone, direct / F(4,3) in CPU-user ms at its
 * size in a 256 px tile of up2x-conservative (`scripts/bench-winograd-layers.ts up2x-conservative
 * 256 5`; AMD EPYC family 26 masked to AVX2, 2 cores, quiet): 64->128 59 / 59 and 162 / 150,
 * 128->64 69 / 56 and 147 / 130, 128->256 154 / 90, 256->128 142 / 87; the narrower layers lost
 * (64->64 about even, 32->64 70 / 86, 64->3 99 / 126). With full-width AVX-512 onnxruntime's
 * direct kernels are twice as fast and F(4,3) lost or tied on all of these but 256->128 (101 / 80):
 * 64->128 38 / 69, 128->64 37 / 56, 128->256 83 / 80 (the same machine unmasked). With the
 * depthwise input and separable output transforms, on an Intel Xeon (family 6, AVX-512, 2 cores,
 * 15 rounds): 64->128 57 / 69 and 111 / 139, 128->64 49 / 71 and 120 / 145, 128->256 116 / 104,
 * 256->128 114 / 90; a whole job still ran fastest direct (converter.ts). Zen 4 runs AVX-512
 * on 256-bit halves, and there the whole up2x-conservative graph at 256 px took 0.96 of direct's
 * CPU user with this plan, unmasked or masked to AVX2 (AMD EPYC family 25 model 17, 9-11 rounds).
 * Narrower plans did better in that whole graph (128<->256 alone 0.93-0.95) but not in a 2 MP job
 * (18.8 s/MP against 18.4 with this plan, direct 20.8). F(4,3) rather than
 * F(6,3): as fast on these shapes within the noise, and less rounding (1.3e-5 against 1.8e-5 of
 * the largest output).
 */
export function wideConvolutionPlan(graph: OnnxGraph): Record<string, WinogradTile> {
  const dims = new Map(graph.initializers.map((t) => [t.name, t.dims]));
  const plan: Record<string, WinogradTile> = {};
  for (const node of graph.nodes) {
    if (node.opType !== 'Conv' || node.name === undefined) continue;
    const w = dims.get(node.inputs[1] ?? '');
    if (isValid3x3(node, w) && Math.max(w![0]!, w![1]!) >= WIDE_CHANNELS) plan[node.name] = WIDE_LAYER_TILE;
  }
  return plan;
}
