// float16 values as their bits, for the float16 maps the stages pass on: the feature cache's uint8
// quantisation of them (cache_mode 1) and the engine's check that they are in range. Conversions
// go through @petamoriken/float16 (Node 22 has no DataView float16 methods); quantising reads
// millions of values, so decoding is a table.
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

/**
 * Whether any of these float16 values is past float16's range (infinite) or not a number: the
 * exponent bits all set. Reads two values per 32-bit word, since it runs over every map a job
 * caches: about 1.1 ns a value over 680 MB of maps (Intel Xeon, 2 cores); branch-free variants
 * that OR a block of words together were no more than 13 % faster.
 */
export function outOfHalfRange(bits: Uint16Array): boolean {
  const EXP = 0x7c00;
  const past = (bits16: number): boolean => (bits16 & EXP) === EXP;
  if (bits.length === 0) return false;
  // 32-bit words must start on a 4-byte boundary: a map that does not is read from its second value
  const start = bits.byteOffset % 4 === 0 ? 0 : 1;
  if (start === 1 && past(bits[0]!)) return true;
  const words = new Uint32Array(bits.buffer, bits.byteOffset + start * 2, (bits.length - start) >> 1);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if ((w & EXP) === EXP || ((w >>> 16) & EXP) === EXP) return true;
  }
  const tail = start + words.length * 2;
  return tail < bits.length && past(bits[tail]!);
}
