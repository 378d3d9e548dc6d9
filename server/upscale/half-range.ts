// Whether a float16 map the stages pass on holds a value past float16's range (see the engine's
// HalfRangeExceeded). The check reads every map a job caches, so it runs as WebAssembly SIMD, eight
// values a step, over blocks of the map copied into the module's memory: 0.26 ns a value against
// 0.93 for the plainest JavaScript loop over 32-bit words (80 M values, Intel Xeon, 2 cores, the
// same with AVX-512 masked off). Node's own scans (a Uint16Array's indexOf, a Float16Array's
// includes) took 0.9 ns a value, and the same check as reductions in the stage graphs cost the
// graph runs as much as it saved.
// The bytes are half-range.wat assembled; the test assembles it again and compares.

import { type WasmMemory, wasm } from './wasm-api.js';

/** half-range.wat, assembled (wabt's wat2wasm) */
const HALF_RANGE_WASM =
  'AGFzbQEAAAABBgFgAX8BfwMCAQAFAwEAEAcWAgZtZW1vcnkCAAlwYXN0UmFuZ2UAAAp+AXwCAn8Ce0GA+AH9ECEEIABBAXRBcHEhAgJAA0AgASACTw0BIAMgAf0ABAAgBP1OIAT9Lf1QIQMgAUEQaiEBDAALCyAD/VMEQEEBDwsCQANAIAEgAEEBdE8NASABLwEAQYD4AXFBgPgBRgRAQQEPCyABQQJqIQEMAAsLQQAL';
/** values per call: the module's 1 MiB memory */
const BLOCK_VALUES = 512 * 1024;

interface Checker {
  block: Uint16Array;
  pastRange: (values: number) => number;
}
let checker: Checker | undefined;

function load(): Checker {
  const { exports } = new wasm.Instance(new wasm.Module(Buffer.from(HALF_RANGE_WASM, 'base64')), {});
  const memory = exports['memory'] as WasmMemory;
  return {
    block: new Uint16Array(memory.buffer, 0, BLOCK_VALUES),
    pastRange: exports['pastRange'] as (values: number) => number,
  };
}

/** Whether any of these float16 values (as their bits) is infinite or not a number. */
export function outOfHalfRange(bits: Uint16Array): boolean {
  checker ??= load();
  for (let start = 0; start < bits.length; start += BLOCK_VALUES) {
    const part = bits.subarray(start, start + BLOCK_VALUES);
    checker.block.set(part);
    if (checker.pastRange(part.length) !== 0) return true;
  }
  return false;
}
