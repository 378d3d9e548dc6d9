// Memory whose start is aligned to the page, for direct I/O (O_DIRECT) on the feature cache's
// spill file: the kernel then moves bytes between the disk and this buffer without the page cache.
// Node gives no control over an ArrayBuffer's address (a plain one failed O_DIRECT's alignment
// check here), but a WebAssembly.Memory is reserved in whole pages by V8, so its buffer starts on a
// page. Small buffers are reused for every transfer, in chunks, so they cost the process a few
// tens of MiB and never grow with the maps.

import { type WasmMemory, WASM_PAGE, wasm } from './wasm-api.js';

/** alignment of direct I/O addresses, lengths and file offsets: a page, which covers every block size */
export const DIRECT_IO_ALIGN = 4096;
/** bytes of a staging buffer by default, moved per direct write: large enough for the disk, small beside a job's budget */
export const STAGING_BYTES = 16 * 1024 * 1024;

/** `bytes` rounded up to a multiple of DIRECT_IO_ALIGN. */
export function alignUp(bytes: number): number {
  return Math.ceil(bytes / DIRECT_IO_ALIGN) * DIRECT_IO_ALIGN;
}

/** A page-aligned buffer of `size` bytes (STAGING_BYTES by default), made at first use. */
export class AlignedStaging {
  private memory: WasmMemory | undefined;

  constructor(readonly size = STAGING_BYTES) {
    if (size <= 0 || size % WASM_PAGE !== 0)
      throw new RangeError(`a staging buffer is whole 64 KiB pages, not ${size} bytes`);
  }

  /** `bytes` of the buffer from `at` (a multiple of DIRECT_IO_ALIGN), starting on a page */
  view(bytes: number, at = 0): Uint8Array {
    if (at % DIRECT_IO_ALIGN !== 0 || at < 0) throw new RangeError(`${at} is not on a page`);
    if (at + bytes > this.size) throw new RangeError(`${bytes} bytes from ${at} is past the staging buffer`);
    this.memory ??= new wasm.Memory({ initial: this.size / WASM_PAGE, maximum: this.size / WASM_PAGE });
    return new Uint8Array(this.memory.buffer, at, bytes);
  }
}
