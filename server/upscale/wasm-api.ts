// The part of the WebAssembly API the server uses (page-aligned staging memory, the float16 range
// check's module), typed here once: the server's TypeScript libraries (ES and Node's) leave the
// WebAssembly global out, though every Node the project runs on has it.

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

interface WasmApi {
  Memory: new (size: { initial: number; maximum: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** bytes in one page of a WebAssembly memory, the unit its size is given in */
export const WASM_PAGE = 64 * 1024;
