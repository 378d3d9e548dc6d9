// Frees an array's memory now, rather than at the next garbage collection: detaching its buffer
// (ArrayBuffer.prototype.transfer to length 0) releases the bytes at once. A job's maps are
// hundreds of MiB; left to the collector, the last job's were often still held when the next job
// made its own, and the process's peak grew from job to job. Node 20 has no `transfer`: there the
// array stays the collector's.

/**
 * Frees `view`'s buffer when the view is the whole of it. The caller vouches that nothing reads the
 * buffer any more: every view of it reads as empty afterwards.
 */
export function freeNow(view: ArrayBufferView): void {
  const buf = view.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (view.byteOffset !== 0 || view.byteLength !== buf.byteLength) return;
  buf.transfer?.(0);
}
