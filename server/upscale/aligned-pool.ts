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
  /** buffers given back, by byte length */
  private readonly free = new Map<number, ArrayBuffer[]>();
  private freeBytes = 0;

  /** @param keepBytes bytes of given-back buffers kept for reuse; past it they are left to the collector */
  constructor(private readonly keepBytes: number) {}

  /** A buffer of at least `bytes` (whole 64 KiB pages), page-aligned; give it back when done. */
  take(bytes: number): ArrayBuffer {
    const size = Math.max(1, Math.ceil(bytes / WASM_PAGE)) * WASM_PAGE;
    const reused = this.free.get(size)?.pop();
    if (reused) {
      this.freeBytes -= size;
      return reused;
    }
    const memory = new wasm.Memory({ initial: size / WASM_PAGE, maximum: size / WASM_PAGE });
    pageAligned.set(memory.buffer, memory);
    return memory.buffer;
  }

  /** Whether a pool made this buffer. */
  owns(buf: ArrayBuffer): boolean {
    return pageAligned.has(buf);
  }

  /** Returns a buffer `take` made, for the next `take` of its size (others are ignored). */
  give(buf: ArrayBuffer): void {
    if (!pageAligned.has(buf) || this.freeBytes + buf.byteLength > this.keepBytes) return;
    const list = this.free.get(buf.byteLength) ?? [];
    if (list.includes(buf)) return;
    list.push(buf);
    this.free.set(buf.byteLength, list);
    this.freeBytes += buf.byteLength;
  }
}
