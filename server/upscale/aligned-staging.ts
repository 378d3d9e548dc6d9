// Memory whose start is aligned to the page, for direct I/O (O_DIRECT) on the feature cache's
// spill file: the kernel then moves bytes between the disk and this buffer without the page cache.
// Node gives no control over an ArrayBuffer's address (a plain one failed O_DIRECT's alignment
// check here), but a WebAssembly.Memory is reserved in whole pages by V8, so its buffer starts on a
// page. One small buffer is reused for every transfer, in chunks, so it costs the process a few
// MiB and never grows with the maps.

/** alignment of direct I/O addresses, lengths and file offsets: a page, which covers every block size */
export const DIRECT_IO_ALIGN = 4096;
/** bytes moved per direct read or write: large enough for the disk, small beside a job's budget */
export const STAGING_BYTES = 16 * 1024 * 1024;
const WASM_PAGE = 64 * 1024;

/** The part of the WebAssembly API used here: the server's TypeScript libraries (ES and Node's) leave it out. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const WasmMemory = (
  globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number; maximum: number }) => WasmMemory } }
).WebAssembly.Memory;

/** `bytes` rounded up to a multiple of DIRECT_IO_ALIGN. */
export function alignUp(bytes: number): number {
  return Math.ceil(bytes / DIRECT_IO_ALIGN) * DIRECT_IO_ALIGN;
}

/** A page-aligned buffer of STAGING_BYTES, made at first use. */
export class AlignedStaging {
  private memory: WasmMemory | undefined;

  /** the buffer's first `bytes` (at most STAGING_BYTES), starting on a page */
  view(bytes: number): Uint8Array {
    if (bytes > STAGING_BYTES) throw new RangeError(`${bytes} bytes is more than the staging buffer`);
    this.memory ??= new WasmMemory({ initial: STAGING_BYTES / WASM_PAGE, maximum: STAGING_BYTES / WASM_PAGE });
    return new Uint8Array(this.memory.buffer, 0, bytes);
  }
}
