// Crops moved ahead of valid convolutions and element-wise layers: the graph computes the same
// numbers, only over fewer pixels, and crops that cannot move stay where they are.
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';

import { pushCropsUp } from '../../../server/upscale/crop-pushdown.js';
import { featureTensor } from '../../../server/upscale/feature-data.js';
import {
  type OnnxGraph,
  type OnnxNode,
  type OnnxValueInfo,
  TensorType,
  encodeModel,
  floatTensor,
  int64Tensor,
} from '../../../server/upscale/onnx-proto.js';

const IN = 3;
const OUT = 4;

/** input -> Cast -> Conv 3x3 (pads as given) -> LeakyRelu -> crop of 2 px top/left, 3 px bottom/right (-> Cast to float16) -> output */
function graph(opts: { pads?: number; convAlsoOutput?: boolean; halfOutput?: boolean } = {}): OnnxGraph {
  const weights = Float32Array.from({ length: OUT * IN * 9 }, (_, i) => Math.sin(i * 0.7) * 0.5);
  const bias = Float32Array.from({ length: OUT }, (_, i) => i * 0.1 - 0.15);
  const p = opts.pads ?? 0;
  const nodes: OnnxNode[] = [
    { opType: 'Cast', inputs: ['image'], outputs: ['image_f32'], attrs: { to: TensorType.FLOAT } },
    {
      opType: 'Conv',
      name: 'conv',
      inputs: ['image_f32', 'w', 'b'],
      outputs: ['conv_pre'],
      attrs: { kernel_shape: [3, 3], pads: [p, p, p, p], strides: [1, 1], dilations: [1, 1] },
    },
    { opType: 'LeakyRelu', inputs: ['conv_pre'], outputs: ['conv_out'], attrs: { alpha: { float: 0.1 } } },
    { opType: 'Slice', name: 'crop', inputs: ['conv_out', 'starts', 'ends', 'axes'], outputs: ['cropped'] },
  ];
  const outputs: OnnxValueInfo[] = [
    { name: 'cropped', elemType: TensorType.FLOAT, shape: [1, OUT, 'h', 'w'] },
  ];
  if (opts.halfOutput) {
    // the crop passed on as float16, as a stage passes a skip branch on
    nodes.push({
      opType: 'Cast',
      inputs: ['cropped'],
      outputs: ['cropped_half'],
      attrs: { to: TensorType.FLOAT16 },
    });
    outputs[0] = { name: 'cropped_half', elemType: TensorType.FLOAT16, shape: [1, OUT, 'h', 'w'] };
  }
  if (opts.convAlsoOutput)
    outputs.push({ name: 'conv_out', elemType: TensorType.FLOAT, shape: [1, OUT, 'h2', 'w2'] });
  return {
    name: 'crop-test',
    nodes,
    initializers: [
      floatTensor('w', [OUT, IN, 3, 3], weights),
      floatTensor('b', [OUT], bias),
      int64Tensor('starts', [2, 2]),
      int64Tensor('ends', [-3, -3]),
      int64Tensor('axes', [2, 3]),
    ],
    inputs: [{ name: 'image', elemType: TensorType.FLOAT16, shape: [1, IN, 'height', 'width'] }],
    outputs,
  };
}

async function run(g: OnnxGraph, h: number, w: number): Promise<ort.Tensor> {
  const session = await ort.InferenceSession.create(encodeModel(g));
  // float16 bits of small values: 0x3000 is 0.125, each step 1/8192
  const pixels = Uint16Array.from({ length: IN * h * w }, (_, i) => 0x3000 + ((i * 37) % 400));
  const res = await session.run({ image: featureTensor(pixels, [1, IN, h, w]) });
  const out = res['cropped']!;
  await session.release();
  return out;
}

const ops = (g: OnnxGraph): string[] => g.nodes.map((n) => n.opType);

describe('pushCropsUp', () => {
  it('crops the input instead of the output of a valid convolution and its element-wise neighbours', async () => {
    const moved = pushCropsUp(graph());
    expect(ops(moved)).toEqual(['Slice', 'Cast', 'Conv', 'LeakyRelu', 'Identity']);
    // the one crop now reads the graph's input; the layers after it read what it made
    expect(moved.nodes[0]!.inputs[0]).toBe('image');
    expect(moved.nodes[1]!.inputs[0]).toBe(moved.nodes[0]!.outputs[0]);
    for (const [h, w] of [
      [20, 17],
      [9, 9],
    ] as const) {
      const before = await run(graph(), h, w);
      const after = await run(moved, h, w);
      expect(after.dims).toEqual([1, OUT, h - 2 - 5, w - 2 - 5]);
      expect(after.dims).toEqual(before.dims);
      expect(Array.from(after.data as Float32Array)).toEqual(Array.from(before.data as Float32Array));
    }
  });

  it('leaves a crop after a padded convolution where it is, above the element-wise layer only', () => {
    const g = pushCropsUp(graph({ pads: 1 }));
    expect(ops(g)).toEqual(['Cast', 'Conv', 'Slice', 'LeakyRelu', 'Identity']);
    expect(g.nodes[2]!.inputs[0]).toBe('conv_pre');
  });

  it('leaves a crop whose map something else reads (here a graph output)', () => {
    const g = pushCropsUp(graph({ convAlsoOutput: true }));
    expect(ops(g)).toEqual(['Cast', 'Conv', 'LeakyRelu', 'Slice']);
  });

  it('moves a crop ahead of a per-channel scaling (a squeeze-and-excitation block) and the cast before it', async () => {
    const scaled = (): OnnxGraph => ({
      name: 'scale-test',
      nodes: [
        { opType: 'Cast', inputs: ['image'], outputs: ['image_f32'], attrs: { to: TensorType.FLOAT } },
        { opType: 'Mul', inputs: ['image_f32', 'scale'], outputs: ['scaled'] },
        { opType: 'Slice', name: 'crop', inputs: ['scaled', 'starts', 'ends', 'axes'], outputs: ['cropped'] },
      ],
      initializers: cropInits(),
      inputs: [
        { name: 'image', elemType: TensorType.FLOAT16, shape: [1, IN, 'height', 'width'] },
        { name: 'scale', elemType: TensorType.FLOAT, shape: [1, IN, 1, 1] },
      ],
      outputs: [{ name: 'cropped', elemType: TensorType.FLOAT, shape: [1, IN, 'h', 'w'] }],
    });
    const moved = pushCropsUp(scaled());
    expect(ops(moved)).toEqual(['Slice', 'Cast', 'Mul', 'Identity']);
    expect(moved.nodes[0]!.inputs[0]).toBe('image');
    const scale = new ort.Tensor('float32', Float32Array.of(0.25, 1.5, -3), [1, IN, 1, 1]);
    const before = await runFeeds(scaled(), 'cropped', { image: halfImage(IN, 12, 10), scale });
    const after = await runFeeds(moved, 'cropped', { image: halfImage(IN, 12, 10), scale });
    expect(after.dims).toEqual([1, IN, 12 - 5, 10 - 5]);
    expect(Array.from(after.data as Float32Array)).toEqual(Array.from(before.data as Float32Array));
  });

  it('leaves a crop by a map (not a vector) where it is', () => {
    const g = pushCropsUp({
      name: 'sum-test',
      nodes: [
        { opType: 'Add', inputs: ['a', 'b'], outputs: ['sum'] },
        { opType: 'Slice', name: 'crop', inputs: ['sum', 'starts', 'ends', 'axes'], outputs: ['cropped'] },
      ],
      initializers: cropInits(),
      inputs: ['a', 'b'].map((name) => ({ name, elemType: TensorType.FLOAT, shape: [1, IN, 'h', 'w'] })),
      outputs: [{ name: 'cropped', elemType: TensorType.FLOAT, shape: [1, IN, 'h2', 'w2'] }],
    });
    expect(ops(g)).toEqual(['Add', 'Slice']);
  });

  it('casts a map to float16 before cropping it when the crop cannot move up: the same values', async () => {
    // the convolution's output is read twice (a graph output too), so the crop stays below it
    const g = pushCropsUp(graph({ convAlsoOutput: true, halfOutput: true }));
    expect(ops(g)).toEqual(['Cast', 'Conv', 'LeakyRelu', 'Cast', 'Slice']);
    const [cast, crop] = g.nodes.slice(3);
    expect(cast!.inputs).toEqual(['conv_out']);
    expect(crop!.inputs[0]).toBe(cast!.outputs[0]);
    expect(crop!.outputs).toEqual(['cropped_half']);
    const feeds = { image: halfImage(IN, 15, 13) };
    const before = await runFeeds(graph({ convAlsoOutput: true, halfOutput: true }), 'cropped_half', feeds);
    const after = await runFeeds(g, 'cropped_half', feeds);
    expect(after.type).toBe('float16');
    expect(after.dims).toEqual(before.dims);
    expect(Array.from(after.data as Uint16Array)).toEqual(Array.from(before.data as Uint16Array));
  });
});

/** the crop of graph(): 2 px top/left, 3 px bottom/right */
function cropInits(): OnnxGraph['initializers'] {
  return [int64Tensor('starts', [2, 2]), int64Tensor('ends', [-3, -3]), int64Tensor('axes', [2, 3])];
}

/** a float16 map of small values: 0x3000 is 0.125, each step 1/8192 */
function halfImage(c: number, h: number, w: number): ort.Tensor {
  return featureTensor(
    Uint16Array.from({ length: c * h * w }, (_, i) => 0x3000 + ((i * 37) % 400)),
    [1, c, h, w],
  );
}

async function runFeeds(
  g: OnnxGraph,
  output: string,
  feeds: Record<string, ort.Tensor>,
): Promise<ort.Tensor> {
  const session = await ort.InferenceSession.create(encodeModel(g));
  const res = await session.run(feeds);
  await session.release();
  return res[output]!;
}
