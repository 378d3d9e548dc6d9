// float16 values as their bits, for the float16 maps the stages pass on: the feature cache's uint8
// quantisation of them (cache_mode 1; the engine's check that they are in range is half-range.ts). Conversions
// go through @petamoriken/float16 (Node 22 has no DataView float16 methods); quantising and
// reading a model's weights (ncnn-bin.ts) decode millions of values, so decoding is a table.
import { getFloat16, setFloat16 } from '@petamoriken/float16';

let table: Float32Array | undefined;
const scratch = new DataView(new ArrayBuffer(2));

/** Every float16 bit pattern's value, by its bits (256 KiB, made at first use). */
export function halfValues(): Float32Array {
  if (!table) {
    table = new Float32Array(65536);
    for (let bits = 0; bits < 65536; bits++) {
      scratch.setUint16(0, bits, true);
      table[bits] = getFloat16(scratch, 0, true);
    }
  }
  return table;
}

/** The float16 nearest `value` (ties to even), as its bits. */
export function halfBits(value: number): number {
  setFloat16(scratch, 0, value, true);
  return scratch.getUint16(0, true);
}
