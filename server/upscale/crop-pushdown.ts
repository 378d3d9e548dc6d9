// Spatial crops moved ahead of the layers whose output they crop, so those layers compute only
// the pixels that are kept.
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
      if (!ELEMENTWISE.has(layer.opType) && !isValidConv(layer)) break;
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
  return graph;
}
