// Spatial crops moved ahead of the layers whose output they crop, so those layers compute only
// the pixels that are kept (or, where a crop cannot move, after a cast to float16, so that it
// copies half the bytes: see castCropsAsHalves).
//
// Real-CUGAN crops each U-Net's skip branch before it is added to the upsampled path. In the
// final stage of a large job, which recomputes the second U-Net's first skip branch (engine.ts,
// `cached`), the branch's two convolutions ran over the whole padded tile at the output's
// resolution and a Slice then copied 64 channels of it less a 16 px border: on a 2 MP 2x job's
// 32 tiles that Slice took 0.32 s and the convolutions 1.56 s of the stage's 6.8 s. Cropping the
// branch's 3-channel input instead gives the same numbers: a convolution without padding and with
// stride 1 maps output pixel (y, x) to the input window starting at (y, x), so cropping its output
// by a border is cropping its input by the same border; an element-wise layer maps each pixel to
// itself. The stage then took 6.3 s, and the job 22.7-23.1 s against 23.3-23.8 (3 pairs; Intel
// Xeon, AVX-512 masked to AVX2, 2 cores). In the 2x and 3x graphs small jobs, whose final stage
// takes the branch from the feature cache, and the one-graph variants, where the branch feeds the
// next layer too, keep their graphs. The 4x graphs' crops move in every variant, the untiled one
// included, for no change measured: a 640x480 4x job took 5.58-6.01 s against 5.61-6.09 tiled and
// 4.89-5.45 s against 4.96-5.41 untiled (3 pairs each, same machine).
//
// Scaling a map by a per-channel vector (an SE block's scale) or a scalar also maps each pixel to
// itself: in the third stage of a 2 MP 2x job the crop of the SE-scaled skip branch took 0.18 s
// and its cast and scale 0.16 s; cropped at the graph's float16 input instead, 0.06 s and 0.14 s
// (32 tiles; AMD EPYC family 25 masked to AVX2, 2 cores).

import { type OnnxGraph, type OnnxNode, type OnnxTensor, TensorType } from './onnx-proto.js';

/** layers that map each value to one value of the same place, their first input the map */
const ELEMENTWISE = new Set(['Relu', 'LeakyRelu', 'Sigmoid', 'Clip', 'Cast', 'Identity']);

/** A Slice's constant int64 inputs, or undefined when one is not an initializer. */
function int64Values(inits: Map<string, OnnxTensor>, name: string | undefined): number[] | undefined {
  const t = name === undefined ? undefined : inits.get(name);
  if (!t || t.dataType !== TensorType.INT64) return undefined;
  const view = new BigInt64Array(t.raw.buffer.slice(t.raw.byteOffset, t.raw.byteOffset + t.raw.byteLength));
  return Array.from(view, Number);
}

/**
 * Whether a Slice crops a border off the two spatial axes of an NCHW map: constant starts from
 * the top or left edge, ends from the bottom or right edge (negative, or past the end), no steps.
 * Such a crop means the same border whatever the map's size.
 */
function isBorderCrop(node: OnnxNode, inits: Map<string, OnnxTensor>): boolean {
  if (node.opType !== 'Slice' || node.inputs.length !== 4) return false;
  const [, startsName, endsName, axesName] = node.inputs;
  const starts = int64Values(inits, startsName);
  const ends = int64Values(inits, endsName);
  const axes = int64Values(inits, axesName);
  if (!starts || !ends || !axes || starts.length !== axes.length || ends.length !== axes.length) return false;
  return (
    axes.every((a) => a === 2 || a === 3 || a === -1 || a === -2) &&
    starts.every((s) => s >= 0) &&
    ends.every((e) => e < 0 || e >= 2 ** 31)
  );
}

/** A Conv whose output pixel (y, x) reads the input window at (y, x): no padding, stride 1, no dilation. */
function isValidConv(node: OnnxNode): boolean {
  if (node.opType !== 'Conv') return false;
  const a = node.attrs ?? {};
  const all = (name: string, value: number): boolean => {
    const v = a[name];
    return v === undefined || (Array.isArray(v) && v.every((x) => x === value));
  };
  return a['auto_pad'] === undefined && all('pads', 0) && all('strides', 1) && all('dilations', 1);
}

/**
 * Moves every border crop up through the valid convolutions and element-wise layers before it,
 * as long as the map it crops is read by nothing else (no other layer, not a graph output). The
 * graph's outputs and every map other layers read keep their shapes. Changes `graph` in place.
 */
export function pushCropsUp(graph: OnnxGraph): OnnxGraph {
  const inits = new Map(graph.initializers.map((t) => [t.name, t]));
  const perChannel = perChannelValues(graph, inits);
  const outputs = new Set(graph.outputs.map((o) => o.name));
  const readers = (name: string): number =>
    graph.nodes.reduce((n, node) => n + node.inputs.filter((i) => i === name).length, 0) +
    (outputs.has(name) ? 1 : 0);
  for (let i = 0; i < graph.nodes.length; i++) {
    const crop = graph.nodes[i]!;
    if (!isBorderCrop(crop, inits)) continue;
    // the first layer of the chain above the crop that it can move ahead of
    let top: OnnxNode | undefined;
    for (let map = crop.inputs[0]!; ;) {
      const layer = graph.nodes.find((n) => n.outputs.includes(map));
      if (!layer || layer.outputs.length !== 1 || readers(map) !== 1) break;
      if (!ELEMENTWISE.has(layer.opType) && !isValidConv(layer) && !isPerPixel(layer, perChannel)) break;
      top = layer;
      map = layer.inputs[0]!;
    }
    if (!top) continue;
    // a copy of the crop reads the chain's input; the chain's layers then make cropped maps, and
    // the crop itself passes its (now cropped) map on unchanged
    const source = top.inputs[0]!;
    const name = `${crop.name ?? crop.outputs[0]!}_ahead`;
    const ahead: OnnxNode = {
      opType: 'Slice',
      name,
      inputs: [source, ...crop.inputs.slice(1)],
      outputs: [`${source}_${name}`],
    };
    graph.nodes.splice(graph.nodes.indexOf(top), 0, ahead);
    i++; // the node list grew before the crop
    top.inputs = [ahead.outputs[0]!, ...top.inputs.slice(1)];
    crop.opType = 'Identity';
    crop.inputs = [crop.inputs[0]!];
  }
  castCropsAsHalves(graph, inits, readers);
  return graph;
}

/**
 * A crop that stayed where it is (its map has other readers, or the layer before it lets nothing
 * past) and whose only reader casts it to float16 (a map a stage passes on) moves after the cast.
 * It then copies float16 values instead of float32 ones, half the bytes: onnxruntime's Slice is
 * one thread's copy. The cast runs over the border as well, a few percent more values. In a 2 MP
 * 2x job the second U-Net's first skip branch (64 channels at the output's resolution) went
 * through a crop of 0.35 s and a cast of 0.13 s, and now a cast of 0.12 s and a crop of 0.18 s
 * (32 tiles; AMD EPYC family 25, masked to AVX2, 2 cores).
 */
function castCropsAsHalves(
  graph: OnnxGraph,
  inits: Map<string, OnnxTensor>,
  readers: (name: string) => number,
): void {
  for (const cast of graph.nodes) {
    if (cast.opType !== 'Cast' || cast.attrs?.['to'] !== TensorType.FLOAT16) continue;
    const crop = graph.nodes.find((n) => n.outputs.includes(cast.inputs[0]!));
    if (!crop || !isBorderCrop(crop, inits) || readers(crop.outputs[0]!) !== 1) continue;
    const full = crop.inputs[0]!;
    const half = `${full}_f16`;
    const target = cast.outputs[0]!;
    // the cast reads the uncropped map, the crop the cast's values, and gives the cast's output
    cast.inputs = [full];
    cast.outputs = [half];
    crop.inputs = [half, ...crop.inputs.slice(1)];
    crop.outputs = [target];
    graph.nodes.splice(graph.nodes.indexOf(cast), 1);
    graph.nodes.splice(graph.nodes.indexOf(crop), 0, cast);
  }
}

/** An element-wise Mul, Add, Sub or Div of a map (its first input) by a per-channel vector or a scalar. */
function isPerPixel(node: OnnxNode, perChannel: ReadonlySet<string>): boolean {
  return (
    ['Mul', 'Add', 'Sub', 'Div'].includes(node.opType) &&
    node.inputs.length === 2 &&
    perChannel.has(node.inputs[1]!)
  );
}

/**
 * The values that are [1, C, 1, 1] vectors or scalars (a squeeze-and-excitation block's means and
 * scales): scalar initializers, graph inputs of that shape, global pools, and what layers make of
 * such values alone (a 1x1 convolution without padding, an activation, an arithmetic layer).
 */
function perChannelValues(graph: OnnxGraph, inits: Map<string, OnnxTensor>): Set<string> {
  const found = new Set<string>();
  for (const t of inits.values()) if (t.dims.length === 0 || t.dims.every((d) => d === 1)) found.add(t.name);
  for (const i of graph.inputs)
    if (
      i.shape.length === 0 ||
      (i.shape.length === 4 && i.shape[0] === 1 && i.shape[2] === 1 && i.shape[3] === 1)
    )
      found.add(i.name);
  const keepsVectors = new Set([...ELEMENTWISE, 'Mul', 'Add', 'Sub', 'Div']);
  for (const node of graph.nodes) {
    const maps = node.inputs.filter((i) => !inits.has(i) || found.has(i));
    const fromVectors = maps.length > 0 && maps.every((i) => found.has(i));
    const pointConv =
      node.opType === 'Conv' &&
      Array.isArray(node.attrs?.['kernel_shape']) &&
      (node.attrs['kernel_shape'] as number[]).every((k) => k === 1) &&
      !(Array.isArray(node.attrs['pads']) && (node.attrs['pads'] as number[]).some((p) => p !== 0));
    if (
      node.opType === 'GlobalAveragePool' ||
      node.opType === 'GlobalMaxPool' ||
      (fromVectors && (keepsVectors.has(node.opType) || pointConv))
    )
      for (const o of node.outputs) found.add(o);
  }
  return found;
}
