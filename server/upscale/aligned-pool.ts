// Page-aligned arrays for whole feature maps that go to the spill file and come back from it under
// direct I/O (spill-file.ts). A map in one of these moves between the disk and the array itself:
// no staging copy on the job's thread, and no wait for that thread between the chunks of a
// transfer, so a tile's maps are written and read while the next graph run goes on. onnxruntime
// writes a stage's cached outputs into them (preallocated outputs) and reads its inputs from them
// (a feed's array is used in place). Like the staging buffers they are WebAssembly memories, whose
// buffers V8 starts on a page; they are kept for reuse, since each fresh page costs a fault.

import { DIRECT_IO_ALIGN, alignUp } from './aligned-staging.js';
import { type WasmMemory, WASM_PAGE, wasm } from './wasm-api.js';

/** buffers made by a pool (their start is on a page), and the WebAssembly memory of each */
const pageAligned = new WeakMap<ArrayBuffer, WasmMemory>();

/** The WebAssembly memory whose buffer this is, when a pool made it (the float16 check reads it in place). */
export function poolMemory(buf: ArrayBuffer): WasmMemory | undefined {
  return pageAligned.get(buf);
}

/**
 * Whether a direct transfer can use the array in place: it starts on a page of a pool's buffer,
 * and the buffer holds the whole pages its bytes take.
 */
export function isPageAligned(view: ArrayBufferView): boolean {
  const buf = view.buffer as ArrayBuffer;
  return (
    pageAligned.has(buf) &&
    view.byteOffset % DIRECT_IO_ALIGN === 0 &&
    view.byteOffset + alignUp(view.byteLength) <= buf.byteLength
  );
}

export class AlignedPool {
  /** buffers given back, oldest first */
  private readonly free: ArrayBuffer[] = [];
  private freeBytes = 0;

  /** @param keepBytes bytes of given-back buffers kept for reuse; past it the oldest are left to the collector */
  constructor(private readonly keepBytes: number) {}

  /** A buffer of at least `bytes` (whole 64 KiB pages), page-aligned; give it back when done. */
  take(bytes: number): ArrayBuffer {
    const size = Math.max(1, Math.ceil(bytes / WASM_PAGE)) * WASM_PAGE;
    const at = this.free.findLastIndex((buf) => buf.byteLength === size);
    if (at >= 0) {
      this.freeBytes -= size;
      return this.free.splice(at, 1)[0]!;
    }
    const memory = new wasm.Memory({ initial: size / WASM_PAGE, maximum: size / WASM_PAGE });
    pageAligned.set(memory.buffer, memory);
    return memory.buffer;
  }

  /** Whether a pool made this buffer. */
  owns(buf: ArrayBuffer): boolean {
    return pageAligned.has(buf);
  }

  /**
   * Returns a buffer `take` made, for the next `take` of its size (others are ignored). Past
   * keepBytes the oldest buffers given back make room for it: a job's maps change size from one
   * stage to the next, and the sizes given back last are the ones asked for next. Keeping the
   * first ones instead, and refusing the newest, a 4 MP 4x job made 246 fresh buffers (1.98 GB)
   * for its 3,600 takes, 123 of them for the 170 takes of one size; this way it made 74 (0.73
   * GB), with 2.15 M page faults down to 1.83-1.85 M and 6.3-6.5 s of kernel time down to 5.7,
   * peaks of 897-970 MiB against 945-977 and the same wall time, 61-62 s (AMD EPYC family 26
   * masked to AVX2, 2 cores). A 2 MP 2x job's 7 sizes fitted either way.
   */
  give(buf: ArrayBuffer): void {
    if (!pageAligned.has(buf) || buf.byteLength > this.keepBytes || this.free.includes(buf)) return;
    while (this.freeBytes + buf.byteLength > this.keepBytes) this.freeBytes -= this.free.shift()!.byteLength;
    this.free.push(buf);
    this.freeBytes += buf.byteLength;
  }
}
