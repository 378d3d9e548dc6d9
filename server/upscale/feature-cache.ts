// Per-tile feature maps kept between SE sync passes (cache_mode 0 and 1).
// Entries live in memory up to a budget; beyond it they go to a temporary file,
// so peak RSS stays bounded for large images while every convolution still runs
// once. Maps are float32, or float16 as the stages pass on their SE features
// and skip branches. cache_mode 1 stores each tensor as uint8 with its own
// min/max (half or a quarter of the bytes, slightly lossy), as Real-CUGAN's
// cache_mode 1 does, and gives it back in the type it was put in; an entry put
// as `exact` (the skip branches) is kept as it is.
//
// Fresh memory is dear: on a virtual machine every new 4 KiB page costs a
// fault (measured about 8 us here), so a 2 MP job that read its spilled
// features into new buffers spent seconds in the kernel. The file reuses the
// slots of deleted entries (its pages stay few and warm) and buffers read back
// are returned by the caller (`release`) and reused for the next read of that size.
//
// The file lives in our named folder (feature-cache-dir.ts), so one left by a
// killed process is found and removed at the next start. An engine lends each
// job's cache its own file (spill-file.ts), whose pages stay from job to job.

import { type AlignedPool, isPageAligned } from './aligned-pool.js';
import { freeNow } from './free-now.js';
import { halfBits, halfValues } from './half-float.js';
import { SpillFile } from './spill-file.js';

/** read-back buffers kept for reuse; small beside a large job's 1 GiB bound */
const READ_POOL_BYTES = 64 * 1024 * 1024;
/**
 * Bytes of maps `put` may leave to be written behind the job: their arrays stay alive until then.
 * At least one map always is, so the next graph run goes on while it is written.
 */
const WRITE_BEHIND_BYTES = 64 * 1024 * 1024;

/** a cached map: float32, or float16 bits as the graph returns them */
export type FeatureData = Float32Array | Uint16Array;

/** how an entry's bytes are stored: as put, or uint8 codes of a float32 or float16 map */
type Storage = 'f32' | 'f16' | 'u8' | 'u8-f16';

interface MemEntry {
  kind: 'mem';
  data: FeatureData | Uint8Array;
}
interface DiskEntry {
  kind: 'disk';
  offset: number;
  bytes: number;
  /** the file's bytes the entry holds: `bytes`, or whole pages under direct I/O */
  slot: number;
  /** settles once the bytes are in the file (they are written behind the job, see `put`) */
  written: Promise<void>;
  /** whether `written` has settled */
  writeDone: boolean;
}
interface Entry {
  storage: Storage;
  dims: number[];
  min: number;
  max: number;
  where: MemEntry | DiskEntry;
}

export class FeatureCache {
  private entries = new Map<string, Entry>();
  private memBytes = 0;
  private peak = 0;
  private readonly spill: SpillFile;
  /** whether the file is this cache's own, removed at close, rather than an engine's */
  private readonly ownsFile: boolean;
  private fileEnd = 0;
  /** file slots of deleted entries, reused by later entries of at most their size */
  private freeSlots: Array<{ offset: number; bytes: number }> = [];
  /** buffers read back from the file, returned by `release`, by byte length */
  private readPool = new Map<number, ArrayBuffer[]>();
  private readPoolBytes = 0;
  private readonly fromFile = new WeakSet<ArrayBuffer>();
  /** writes still going on, oldest first, and their bytes */
  private writing: Array<{ done: Promise<void>; bytes: number }> = [];
  private writingBytes = 0;
  /** once closed, a `get` still waiting (a tile's maps read ahead of a job that stopped) reads nothing */
  private closed = false;
  spilledBytes = 0;

  constructor(
    private readonly budgetBytes: number,
    private readonly quantise: boolean,
    /** folder of the temporary file; featureCacheDir() when not given */
    dir?: string,
    /** a file the caller keeps between caches; the cache writes it from its start */
    spill?: SpillFile,
    /**
     * page-aligned buffers (a direct file's): maps are read back into them, and a put map that
     * is in one goes back to the pool once the cache is done with it
     */
    private readonly pool?: AlignedPool,
  ) {
    this.spill = spill ?? new SpillFile(0, dir);
    this.ownsFile = !spill;
  }

  /** the temporary file, once something has spilled */
  get path(): string | undefined {
    return this.spill.path;
  }

  get peakMemoryBytes(): number {
    return this.peak;
  }

  /** bytes of the temporary file this cache has used: about the most spilled bytes alive at once, not all ever written (a kept file may be longer) */
  get fileBytes(): number {
    return this.fileEnd;
  }

  /**
   * `exact`: never quantised, even in a quantising cache. A map that spills is written behind the
   * caller, so `data` must not change after the call (the engine's are graph outputs it never writes).
   * The cache takes `data` over: a map kept in memory is freed when it is deleted or the cache
   * closes, so the caller must not read it after those.
   */
  async put(key: string, data: FeatureData, dims: number[], opts: { exact?: boolean } = {}): Promise<void> {
    await this.delete(key);
    let min = 0;
    let max = 0;
    let stored: FeatureData | Uint8Array = data;
    let storage: Storage = data instanceof Uint16Array ? 'f16' : 'f32';
    if (this.quantise && !opts.exact) {
      // float16 bits are read through the table of their values
      const values = data instanceof Uint16Array ? halfValues() : undefined;
      const at = (i: number): number => (values ? values[data[i]!]! : data[i]!);
      min = Infinity;
      max = -Infinity;
      for (let i = 0; i < data.length; i++) {
        const v = at(i);
        if (v < min) min = v;
        if (v > max) max = v;
      }
      const q = new Uint8Array(data.length);
      const k = max > min ? 255 / (max - min) : 0;
      for (let i = 0; i < data.length; i++) q[i] = Math.round((at(i) - min) * k);
      stored = q;
      storage = values ? 'u8-f16' : 'u8';
      this.giveBack(data);
    }
    if (this.memBytes + stored.byteLength <= this.budgetBytes) {
      this.entries.set(key, { storage, dims, min, max, where: { kind: 'mem', data: stored } });
      this.memBytes += stored.byteLength;
      this.peak = Math.max(this.peak, this.memBytes);
      return;
    }
    await this.spill.handle(); // the file exists once put returns, though the bytes may still be on their way
    const bytes = new Uint8Array(stored.buffer, stored.byteOffset, stored.byteLength);
    const slot = this.spill.slotBytes(bytes.length);
    const offset = this.allocateSlot(slot);
    // Written behind: the caller's next graph run goes on meanwhile (under direct I/O the wait is
    // the disk's, not the CPU's). A failed write fails the `get` of its map.
    const written = this.spill.write(bytes, offset);
    const where: DiskEntry = { kind: 'disk', offset, bytes: bytes.length, slot, written, writeDone: false };
    const settle = (): void => {
      where.writeDone = true;
      if (stored === data) this.giveBack(data);
    };
    void written.then(settle, settle);
    written.catch(() => undefined); // not a rejection nobody handles: `get` and `close` see it
    this.entries.set(key, { storage, dims, min, max, where });
    this.spilledBytes += bytes.length;
    this.writing.push({ done: written, bytes: bytes.length });
    this.writingBytes += bytes.length;
    while (this.writing.length > 1 && this.writingBytes > WRITE_BEHIND_BYTES) await this.settleOldestWrite();
  }

  /** Waits for the oldest write still going on; its error, if any, is its map's `get`'s to report. */
  private async settleOldestWrite(): Promise<void> {
    const oldest = this.writing.shift()!;
    await oldest.done.catch(() => undefined);
    this.writingBytes -= oldest.bytes;
  }

  /** frees a slot, merged with free neighbours so that split slots do not fragment the file */
  private freeSlot(offset: number, bytes: number): void {
    let start = offset;
    let end = offset + bytes;
    this.freeSlots = this.freeSlots.filter((slot) => {
      if (slot.offset + slot.bytes === start) start = slot.offset;
      else if (slot.offset === end) end = slot.offset + slot.bytes;
      else return true;
      return false;
    });
    this.freeSlots.push({ offset: start, bytes: end - start });
  }

  /** the smallest free slot that fits, else the end of the file */
  private allocateSlot(bytes: number): number {
    let best = -1;
    for (let i = 0; i < this.freeSlots.length; i++) {
      const slot = this.freeSlots[i]!;
      if (slot.bytes >= bytes && (best < 0 || slot.bytes < this.freeSlots[best]!.bytes)) best = i;
    }
    if (best < 0) {
      const offset = this.fileEnd;
      this.fileEnd += bytes;
      return offset;
    }
    const slot = this.freeSlots[best]!;
    if (slot.bytes === bytes) this.freeSlots.splice(best, 1);
    else this.freeSlots[best] = { offset: slot.offset + bytes, bytes: slot.bytes - bytes };
    return slot.offset;
  }

  /** Hands a pool's buffer back to the pool (any other array is the collector's). */
  private giveBack(data: ArrayBufferView): void {
    if (this.pool && isPageAligned(data)) this.pool.give(data.buffer as ArrayBuffer);
  }

  /** A map nobody reads any more: back to the pool, or its memory freed now (free-now.ts). */
  private drop(data: ArrayBufferView): void {
    if (this.pool?.owns(data.buffer as ArrayBuffer)) this.giveBack(data);
    else freeNow(data);
  }

  private readBuffer(bytes: number): Uint8Array {
    if (this.pool && this.spill.isDirect) {
      // read in place (spill-file.ts), into pages the pool keeps warm
      const buf = this.pool.take(bytes);
      this.fromFile.add(buf);
      return new Uint8Array(buf, 0, bytes);
    }
    const pooled = this.readPool.get(bytes)?.pop();
    if (pooled) {
      this.readPoolBytes -= bytes;
      return new Uint8Array(pooled);
    }
    const buf = new Uint8Array(bytes);
    this.fromFile.add(buf.buffer);
    return buf;
  }

  /**
   * Hands back an array `get` returned once the caller no longer needs it;
   * arrays read from the file are reused (up to READ_POOL_BYTES in all).
   */
  release(data: FeatureData): void {
    this.recycle(data.buffer as ArrayBuffer);
  }

  private recycle(buf: ArrayBuffer): void {
    if (!this.fromFile.has(buf)) return;
    if (this.pool?.owns(buf)) {
      // the pool may lend it next as a graph output that an entry keeps: no longer ours to recycle
      this.fromFile.delete(buf);
      this.pool.give(buf);
      return;
    }
    if (this.readPoolBytes + buf.byteLength > READ_POOL_BYTES) {
      this.fromFile.delete(buf);
      freeNow(new Uint8Array(buf));
      return;
    }
    const list = this.readPool.get(buf.byteLength) ?? [];
    list.push(buf);
    this.readPool.set(buf.byteLength, list);
    this.readPoolBytes += buf.byteLength;
  }

  async get(key: string): Promise<{ data: FeatureData; dims: number[] }> {
    const e = this.entries.get(key);
    if (!e) throw new Error(`feature ${key} not cached`);
    let raw: FeatureData | Uint8Array;
    if (e.where.kind === 'mem') raw = e.where.data;
    else {
      await e.where.written;
      if (this.closed) throw new Error(`feature ${key}: the cache was closed`);
      const buf = this.readBuffer(e.where.bytes);
      await this.spill.read(buf, e.where.offset);
      // the read buffer may be a larger pool buffer's start
      raw =
        e.storage === 'f16'
          ? new Uint16Array(buf.buffer, 0, buf.length / 2)
          : e.storage === 'f32'
            ? new Float32Array(buf.buffer, 0, buf.length / 4)
            : buf;
    }
    if (!(raw instanceof Uint8Array)) return { data: raw, dims: e.dims };
    const k = (e.max - e.min) / 255;
    let out: FeatureData;
    if (e.storage === 'u8-f16') {
      // 256 codes: each one's float16 once, then a lookup per value
      const codes = Uint16Array.from({ length: 256 }, (_, q) => halfBits(e.min + q * k));
      out = new Uint16Array(raw.length);
      for (let i = 0; i < raw.length; i++) out[i] = codes[raw[i]!]!;
    } else {
      out = new Float32Array(raw.length);
      for (let i = 0; i < raw.length; i++) out[i] = e.min + raw[i]! * k;
    }
    this.recycle(raw.buffer as ArrayBuffer);
    return { data: out, dims: e.dims };
  }

  async delete(key: string): Promise<void> {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    if (e.where.kind === 'mem') {
      this.memBytes -= e.where.data.byteLength;
      this.drop(e.where.data);
      return;
    }
    // With a pool some maps are written in place (spill-file.ts), not ordered after the writes
    // asked for before them: a write still going on then keeps its slot until it is done, so that
    // no later write lands on the same bytes first. Staged writes alone keep their order.
    const { offset, slot, written } = e.where;
    if (!this.pool || e.where.writeDone) this.freeSlot(offset, slot);
    else void written.then(() => this.freeSlot(offset, slot), () => this.freeSlot(offset, slot));
  }

  async close(): Promise<void> {
    this.closed = true;
    while (this.writing.length > 0) await this.settleOldestWrite();
    for (const e of this.entries.values()) if (e.where.kind === 'mem') this.drop(e.where.data);
    this.entries.clear();
    this.memBytes = 0;
    this.freeSlots = [];
    for (const list of this.readPool.values()) for (const buf of list) freeNow(new Uint8Array(buf));
    this.readPool.clear();
    this.readPoolBytes = 0;
    if (this.ownsFile) await this.spill.close();
    else await this.spill.jobDone();
  }
}
