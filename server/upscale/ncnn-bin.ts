// Reader for ncnn's weight file (.bin). Each weight blob starts with a 4-byte
// tag saying how it is stored; biases and other "raw" blobs have no tag.

import { halfValues } from './half-float.js';

const TAG_FP16 = 0x01306b47;
const TAG_INT8 = 0x000d4b38;
const TAG_FP32_SCALED = 0x0002c056;

export class NcnnBinError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NcnnBinError';
  }
}

const align4 = (n: number): number => (n + 3) & ~3;

export class NcnnBinReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.data.length - this.offset;
  }

  private need(bytes: number, what: string): void {
    if (this.offset + bytes > this.data.length) {
      throw new NcnnBinError(`unexpected end of weights while reading ${what} at byte ${this.offset}`);
    }
  }

  /** Untagged fp32 array (biases). */
  readRaw(count: number): Float32Array {
    this.need(count * 4, 'raw floats');
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = this.view.getFloat32(this.offset + i * 4, true);
    this.offset += count * 4;
    return out;
  }

  /** Tagged weight blob: fp16, fp32, or a 256-entry table + uint8 indices. */
  readTagged(count: number): Float32Array {
    this.need(4, 'weight tag');
    const tag = this.view.getUint32(this.offset, true);
    const f = [0, 1, 2, 3].map((i) => this.data[this.offset + i]!);
    this.offset += 4;
    const out = new Float32Array(count);
    if (tag === TAG_FP16) {
      this.need(align4(count * 2), 'fp16 weights');
      // Through the table: @petamoriken/float16's getFloat16 per weight grew V8's heap to 144 MiB
      // for a 4x model, which the converting process (the first job's) then kept: converting it
      // peaked at 267 MiB RSS and took 1.2 s, this way 142 MiB and 0.3 s (AMD EPYC family 26,
      // Node 24).
      const halves = halfValues();
      for (let i = 0; i < count; i++) out[i] = halves[this.view.getUint16(this.offset + i * 2, true)]!;
      this.offset += align4(count * 2);
      return out;
    }
    if (tag === TAG_INT8) {
      // int8 weights need the per-channel scales of an int8 graph; Real-CUGAN does not use them.
      throw new NcnnBinError('int8 weight blobs are not supported');
    }
    if (tag === TAG_FP32_SCALED || tag === 0) {
      this.need(count * 4, 'fp32 weights');
      for (let i = 0; i < count; i++) out[i] = this.view.getFloat32(this.offset + i * 4, true);
      this.offset += count * 4;
      return out;
    }
    if (f[0]! + f[1]! + f[2]! + f[3]! !== 0) {
      // Quantised form: 256 fp32 codebook values, then one uint8 index per weight.
      this.need(256 * 4 + align4(count), 'quantised weights');
      const table = new Float32Array(256);
      for (let i = 0; i < 256; i++) table[i] = this.view.getFloat32(this.offset + i * 4, true);
      this.offset += 256 * 4;
      for (let i = 0; i < count; i++) out[i] = table[this.data[this.offset + i]!]!;
      this.offset += align4(count);
      return out;
    }
    throw new NcnnBinError(`unknown weight tag 0x${tag.toString(16)}`);
  }
}
