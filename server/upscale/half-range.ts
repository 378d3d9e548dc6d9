// Whether a float16 map the stages pass on holds a value past float16's range (see the engine's
// HalfRangeExceeded). The check reads every map a job caches, so it runs as WebAssembly SIMD, eight
// values a step, over the map where it is or blocks of it copied into the module's memory (see
// outOfHalfRange): 0.26 ns a value against 0.93 for the plainest JavaScript loop over 32-bit words
// (80 M values, Intel Xeon, 2 cores, the same with AVX-512 masked off). Node's own scans (a
// Uint16Array's indexOf, a Float16Array's includes) took 0.9 ns a value, and the same check as
// reductions in the stage graphs cost the graph runs as much as it saved.
// The bytes are half-range.wat assembled; the test assembles it again and compares.

import { poolMemory } from './aligned-pool.js';
import { type WasmMemory, WASM_PAGE, wasm } from './wasm-api.js';

/** half-range.wat, assembled (wabt's wat2wasm) */
const HALF_RANGE_WASM =
  'AGFzbQEAAAABBwFgAn9/AX8CDwEDZW52Bm1lbW9yeQIAAQMCAQAHDQEJcGFzdFJhbmdlAAAKjQEBigECA38Ce0GA+AH9ECEGIAAhAiAAIAFBAXRqIQQgACABQQF0QXBxaiEDAkADQCACIANPDQEgBSAC/QAEACAG/U4gBv0t/VAhBSACQRBqIQIMAAsLIAX9UwRAQQEPCwJAA0AgAiAETw0BIAIvAQBBgPgBcUGA+AFGBEBBAQ8LIAJBAmohAgwACwtBAAs=';
/** values per call of the copying path: its own 1 MiB memory */
const BLOCK_VALUES = 512 * 1024;

type PastRange = (at: number, values: number) => number;

let module: object | undefined;
/** the check's instance over each memory it has run on: its own block's, and pool buffers' */
const checkers = new WeakMap<WasmMemory, PastRange>();
let block: { values: Uint16Array; pastRange: PastRange } | undefined;

function checkerOver(memory: WasmMemory): PastRange {
  let pastRange = checkers.get(memory);
  if (!pastRange) {
    module ??= new wasm.Module(Buffer.from(HALF_RANGE_WASM, 'base64'));
    const { exports } = new wasm.Instance(module, { env: { memory } });
    pastRange = exports['pastRange'] as PastRange;
    checkers.set(memory, pastRange);
  }
  return pastRange;
}

/**
 * Whether any of these float16 values (as their bits) is infinite or not a number. A map in an
 * aligned pool's buffer (a large job's, see aligned-pool.ts) is read where it is, since that buffer
 * is a WebAssembly memory; any other is copied into the module's own memory block by block. Over
 * a 2 MP 2x job's 2.6 GB of maps the check took 0.27 s of the job's thread with the copies (0.2 s
 * of them), 0.15 s in place (AMD EPYC family 25 masked to AVX2, 2 cores; CPU profiles).
 */
export function outOfHalfRange(bits: Uint16Array): boolean {
  const memory = poolMemory(bits.buffer as ArrayBuffer);
  if (memory) return checkerOver(memory)(bits.byteOffset, bits.length) !== 0;
  if (!block) {
    const own = new wasm.Memory({
      initial: (BLOCK_VALUES * 2) / WASM_PAGE,
      maximum: (BLOCK_VALUES * 2) / WASM_PAGE,
    });
    block = { values: new Uint16Array(own.buffer, 0, BLOCK_VALUES), pastRange: checkerOver(own) };
  }
  for (let start = 0; start < bits.length; start += BLOCK_VALUES) {
    const part = bits.subarray(start, start + BLOCK_VALUES);
    block.values.set(part);
    if (block.pastRange(0, part.length) !== 0) return true;
  }
  return false;
}
