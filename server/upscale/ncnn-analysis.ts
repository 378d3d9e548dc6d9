// Structural facts about an ncnn graph that the converter and the tiled engine
// need: blob aliases (Split), squeeze-and-excitation blocks, and how spatial
// sizes propagate (all Real-CUGAN convolutions are "valid", so a tile's
// features line up exactly with the untiled image's once offsets are aligned).

import { type NcnnGraph, type NcnnLayer, paramArray, paramInt } from './ncnn-param.js';

export class UnsupportedGraphError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedGraphError';
  }
}

/** Split only fans a blob out; map every Split top to the blob it copies. */
export function blobAliases(graph: NcnnGraph): Map<string, string> {
  const alias = new Map<string, string>();
  const canon = (b: string): string => alias.get(b) ?? b;
  for (const l of graph.layers) {
    if (l.type === 'Split') for (const t of l.tops) alias.set(t, canon(l.bottoms[0]!));
  }
  return alias;
}

export interface SeBlock {
  index: number;
  /** canonical blob averaged by the global pooling (the features before the SE scale) */
  poolInput: string;
  /** blob holding the per-channel mean (output of the global pooling) */
  mean: string;
  channels: number;
  /** output blob of the BinaryOp that applies the SE scale */
  mulOutput: string;
}

export function findSeBlocks(graph: NcnnGraph): SeBlock[] {
  const alias = blobAliases(graph);
  const canon = (b: string): string => alias.get(b) ?? b;
  const producers = new Map<string, NcnnLayer>();
  for (const l of graph.layers) for (const t of l.tops) producers.set(canon(t), l);
  const blocks: SeBlock[] = [];
  for (const l of graph.layers) {
    if (l.type !== 'Pooling' || paramInt(l, 4, 0) !== 1 || paramInt(l, 0, 0) !== 1) continue;
    const poolInput = canon(l.bottoms[0]!);
    const mean = canon(l.tops[0]!);
    // The SE multiply takes the pooled features and a blob derived from the mean.
    const dependsOnMean = (blob: string, depth: number): boolean => {
      if (blob === mean) return true;
      const p = producers.get(blob);
      if (!p || depth > 8) return false;
      return p.bottoms.some((b) => dependsOnMean(canon(b), depth + 1));
    };
    const mul = graph.layers.find(
      (m) =>
        m.type === 'BinaryOp' &&
        paramInt(m, 0, 0) === 2 &&
        m.bottoms.length === 2 &&
        m.bottoms.some((b) => canon(b) === poolInput) &&
        m.bottoms.some((b) => dependsOnMean(canon(b), 0)),
    );
    if (!mul) continue;
    const fc = graph.layers.find((x) => x.type === 'InnerProduct' && canon(x.bottoms[0]!) === mean);
    if (!fc) continue;
    const channels = paramInt(fc, 2, 0) / paramInt(fc, 0, 1);
    blocks.push({ index: blocks.length, poolInput, mean, channels, mulOutput: canon(mul.tops[0]!) });
  }
  return blocks;
}

/** Spatial length of every blob for a square input of side `len` ('vector' after global pooling). */
export function spatialLengths(graph: NcnnGraph, len: number): Map<string, number | 'vector'> {
  const alias = blobAliases(graph);
  const canon = (b: string): string => alias.get(b) ?? b;
  const size = new Map<string, number | 'vector'>();
  const get = (b: string): number | 'vector' => {
    const v = size.get(canon(b));
    if (v === undefined) throw new UnsupportedGraphError(`blob ${b} used before it is produced`);
    return v;
  };
  for (const l of graph.layers) {
    const top = l.tops[0] === undefined ? undefined : canon(l.tops[0]);
    const inLen = (): number => {
      const v = get(l.bottoms[0]!);
      if (v === 'vector') throw new UnsupportedGraphError(`${l.name}: spatial op on a vector`);
      return v;
    };
    switch (l.type) {
      case 'Input':
        size.set(top!, len);
        break;
      case 'Split':
        break;
      case 'Convolution': {
        const k = paramInt(l, 1, 0);
        const d = paramInt(l, 2, 1);
        const s = paramInt(l, 3, 1);
        const p = paramInt(l, 4, 0);
        const pr = paramInt(l, 15, p);
        size.set(top!, Math.floor((inLen() + p + pr - d * (k - 1) - 1) / s) + 1);
        break;
      }
      case 'Deconvolution': {
        const k = paramInt(l, 1, 0);
        const d = paramInt(l, 2, 1);
        const s = paramInt(l, 3, 1);
        const p = paramInt(l, 4, 0);
        const pr = paramInt(l, 15, p);
        const op = paramInt(l, 18, 0);
        size.set(top!, (inLen() - 1) * s + d * (k - 1) + 1 - p - pr + op);
        break;
      }
      case 'Pooling':
        if (paramInt(l, 4, 0) === 1) size.set(top!, 'vector');
        else {
          const k = paramInt(l, 1, 0);
          const s = paramInt(l, 2, 1);
          const p = paramInt(l, 3, 0);
          size.set(top!, Math.floor((inLen() + 2 * p - k) / s) + 1);
        }
        break;
      case 'InnerProduct':
        size.set(top!, 'vector');
        break;
      case 'BinaryOp': {
        const sizes = l.bottoms.map(get);
        const spatial = sizes.filter((x): x is number => x !== 'vector');
        size.set(top!, spatial.length ? Math.max(...spatial) : 'vector');
        break;
      }
      case 'Crop': {
        const L = inLen();
        const { start, end } = cropRange(l, L);
        size.set(top!, end - start);
        break;
      }
      case 'PixelShuffle':
        size.set(top!, inLen() * paramInt(l, 0, 1));
        break;
      case 'ReLU':
      case 'Sigmoid':
      case 'Eltwise':
      case 'Concat':
        size.set(top!, get(l.bottoms[0]!));
        break;
      default:
        throw new UnsupportedGraphError(`layer type ${l.type} (${l.name}) is not supported`);
    }
  }
  return size;
}

/** The spatial crop a Crop layer applies to one of H/W (they are equal in Real-CUGAN). */
export function cropRange(l: NcnnLayer, len: number): { start: number; end: number } {
  const starts = paramArray(l, 9, []);
  const ends = paramArray(l, 10, []);
  const axes = paramArray(l, 11, []);
  if (starts.length) {
    // Only spatial crops of equal amount on H and W are representable as one length.
    const i = axes.findIndex((a) => a === -1 || a === 2);
    if (i < 0) return { start: 0, end: len };
    const s = starts[i]!;
    const e = ends[i]!;
    const start = s < 0 ? len + s : Math.min(s, len);
    const end = e <= 0 ? len + e : Math.min(e, len);
    return { start, end };
  }
  const off = paramInt(l, 0, 0);
  const outw = paramInt(l, 3, 0);
  const off2 = paramInt(l, 6, 0);
  return { start: off, end: outw > 0 ? off + outw : len - off2 };
}

export interface ModelGeometry {
  scale: number;
  /** reflect padding on each side, in input pixels */
  prepad: number;
  /** padded tile sizes and tile offsets must be multiples of this */
  align: number;
}

export function modelGeometry(graph: NcnnGraph): ModelGeometry {
  const outBlob = graph.layers[graph.layers.length - 1]!.tops[0]!;
  const align = 4;
  const base = 128;
  const a = spatialLengths(graph, base).get(outBlob);
  const b = spatialLengths(graph, base + align).get(outBlob);
  if (typeof a !== 'number' || typeof b !== 'number') throw new UnsupportedGraphError('output is not spatial');
  const scale = (b - a) / align;
  const prepad = (base - a / scale) / 2;
  if (!Number.isInteger(scale) || !Number.isInteger(prepad) || scale < 1) {
    throw new UnsupportedGraphError(`cannot derive scale/padding (scale ${scale}, prepad ${prepad})`);
  }
  // 3x upsamples the first U-Net's output by 3 before two stride-2 stages: 4 keeps
  // every intermediate grid aligned; 2x and 4x need 2 (as realcugan-ncnn-vulkan does).
  return { scale, prepad, align: scale === 3 ? 4 : 2 };
}
