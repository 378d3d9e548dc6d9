// float16 values as their bits, for the feature cache's uint8 quantisation (cache_mode 1) of the
// float16 maps the stages pass on. Conversions go through @petamoriken/float16 (Node 22 has no
// DataView float16 methods); quantising reads millions of values, so decoding is a table.
import { getFloat16, setFloat16 } from '@petamoriken/float16';

let table: Float32Array | undefined;

/** Every float16 bit pattern's value, by its bits (256 KiB, made at first use). */
export function halfValues(): Float32Array {
  if (!table) {
    const view = new DataView(new ArrayBuffer(2));
    table = new Float32Array(65536);
    for (let bits = 0; bits < 65536; bits++) {
      view.setUint16(0, bits, true);
      table[bits] = getFloat16(view, 0, true);
    }
  }
  return table;
}

/** The float16 nearest `value` (ties to even), as its bits. */
export function halfBits(value: number): number {
  const view = new DataView(new ArrayBuffer(2));
  setFloat16(view, 0, value, true);
  return view.getUint16(0, true);
}
