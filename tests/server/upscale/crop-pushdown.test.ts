// Crops moved ahead of valid convolutions and element-wise layers: the graph computes the same
// numbers, only over fewer pixels, and crops that cannot move stay where they are.
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';

import { pushCropsUp } from '../../../server/upscale/crop-pushdown.js';
import { featureTensor } from '../../../server/upscale/feature-data.js';
import {
  type OnnxGraph,
  type OnnxNode,
  TensorType,
  encodeModel,
  floatTensor,
  int64Tensor,
} from '../../../server/upscale/onnx-proto.js';

const IN = 3;
const OUT = 4;

/** input -> Cast -> Conv 3x3 (pads as given) -> LeakyRelu -> crop of 2 px top/left, 3 px bottom/right -> output */
function graph(opts: { pads?: number; convAlsoOutput?: boolean } = {}): OnnxGraph {
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
  const outputs = [{ name: 'cropped', elemType: TensorType.FLOAT, shape: [1, OUT, 'h', 'w'] }];
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
});
