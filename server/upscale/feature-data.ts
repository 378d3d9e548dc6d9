// A cached feature map as onnxruntime hands it back and takes it again. Skip branches are float16.
// Where the runtime has a global Float16Array (Node 24 and newer), onnxruntime-common gives float16
// data as a Float16Array and turns a Uint16Array passed in into one; Node 22 and older give and take
// a Uint16Array. The cache keeps one form, the float16 bits as a Uint16Array, chosen by the
// tensor's declared type rather than by its array's class.
import * as ort from 'onnxruntime-node';
import type { FeatureData } from './feature-cache.js';

/** The tensor's data as the feature cache stores it: float32 values, or float16 bits (no copy). */
export function featureData(tensor: ort.Tensor): FeatureData {
  const data = tensor.data;
  if (tensor.type === 'float32' && data instanceof Float32Array) return data;
  if (tensor.type === 'float16' && ArrayBuffer.isView(data))
    return new Uint16Array(data.buffer, data.byteOffset, data.byteLength / Uint16Array.BYTES_PER_ELEMENT);
  throw new Error(`a cached feature map must be float32 or float16, not ${tensor.type}`);
}

/**
 * A cached map back as a model input. float16 bits go to the native binding as a Uint16Array:
 * onnxruntime-node's binding (1.30, 1.31.1) reads a Float16Array's byte length as 0 and refuses
 * the input ("not enough space: expected N, got 0", onnxruntime pull request 32323), and an
 * ort.Tensor would hold a Float16Array on Node 24. The binding reads a feed's type, dims, data and
 * location only, and session.run passes feeds through as they are.
 */
export function featureTensor(data: FeatureData, dims: readonly number[]): ort.Tensor {
  if (data instanceof Float32Array) return new ort.Tensor('float32', data, dims);
  const feed = { type: 'float16', dims, data, location: 'cpu', size: data.length };
  // A plain value in the binding's shape; see above for why it is not an ort.Tensor.
  return feed as unknown as ort.Tensor;
}

/**
 * A preallocated float16 output: onnxruntime writes the map into `data` (a page-aligned array of
 * aligned-pool.ts). session.run takes only an ort.Tensor as a fetch, and on Node 24 an ort.Tensor
 * holds its float16 data as a Float16Array, which the binding refuses (above): the tensor's
 * `data` is shadowed by the Uint16Array itself, the one property of it the binding reads.
 */
export function outputTensor(data: Uint16Array, dims: readonly number[]): ort.Tensor {
  const tensor = new ort.Tensor('float16', data, dims);
  Object.defineProperty(tensor, 'data', { value: data });
  return tensor;
}
