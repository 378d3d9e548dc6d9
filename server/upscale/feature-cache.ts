// Per-tile feature maps kept between SE sync passes (cache_mode 0 and 1).
// Entries live in memory up to a budget; beyond it they go to a temporary file,
// so peak RSS stays bounded for large images while every convolution still runs
// once. cache_mode 1 stores each tensor as uint8 with its own min/max (about 4x
// smaller, slightly lossy), as Real-CUGAN's cache_mode 1 does.

import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

interface MemEntry {
  kind: 'mem';
  data: Float32Array | Uint8Array;
}
interface DiskEntry {
  kind: 'disk';
  offset: number;
  bytes: number;
  quantised: boolean;
}
interface Entry {
  dims: number[];
  min: number;
  max: number;
  where: MemEntry | DiskEntry;
}

export class FeatureCache {
  private entries = new Map<string, Entry>();
  private memBytes = 0;
  private peak = 0;
  private dir: string | undefined;
  private file: FileHandle | undefined;
  private fileEnd = 0;
  spilledBytes = 0;

  constructor(
    private readonly budgetBytes: number,
    private readonly quantise: boolean,
  ) {}

  get peakMemoryBytes(): number {
    return this.peak;
  }

  async put(key: string, data: Float32Array, dims: number[]): Promise<void> {
    await this.delete(key);
    let min = 0;
    let max = 0;
    let stored: Float32Array | Uint8Array = data;
    if (this.quantise) {
      min = Infinity;
      max = -Infinity;
      for (let i = 0; i < data.length; i++) {
        const v = data[i]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      const q = new Uint8Array(data.length);
      const k = max > min ? 255 / (max - min) : 0;
      for (let i = 0; i < data.length; i++) q[i] = Math.round((data[i]! - min) * k);
      stored = q;
    }
    if (this.memBytes + stored.byteLength <= this.budgetBytes) {
      this.entries.set(key, { dims, min, max, where: { kind: 'mem', data: stored } });
      this.memBytes += stored.byteLength;
      this.peak = Math.max(this.peak, this.memBytes);
      return;
    }
    const file = await this.spillFile();
    const bytes = new Uint8Array(stored.buffer, stored.byteOffset, stored.byteLength);
    await file.write(bytes, 0, bytes.length, this.fileEnd);
    this.entries.set(key, { dims, min, max, where: { kind: 'disk', offset: this.fileEnd, bytes: bytes.length, quantised: this.quantise } });
    this.fileEnd += bytes.length;
    this.spilledBytes += bytes.length;
  }

  async get(key: string): Promise<{ data: Float32Array; dims: number[] }> {
    const e = this.entries.get(key);
    if (!e) throw new Error(`feature ${key} not cached`);
    let raw: Float32Array | Uint8Array;
    if (e.where.kind === 'mem') raw = e.where.data;
    else {
      const buf = new Uint8Array(e.where.bytes);
      await this.file!.read(buf, 0, buf.length, e.where.offset);
      raw = e.where.quantised ? buf : new Float32Array(buf.buffer);
    }
    if (raw instanceof Float32Array) return { data: raw, dims: e.dims };
    const out = new Float32Array(raw.length);
    const k = (e.max - e.min) / 255;
    for (let i = 0; i < raw.length; i++) out[i] = e.min + raw[i]! * k;
    return { data: out, dims: e.dims };
  }

  async delete(key: string): Promise<void> {
    const e = this.entries.get(key);
    if (!e) return;
    if (e.where.kind === 'mem') this.memBytes -= e.where.data.byteLength;
    this.entries.delete(key);
  }

  private async spillFile(): Promise<FileHandle> {
    if (!this.file) {
      this.dir = await mkdtemp(path.join(os.tmpdir(), 'loom-features-'));
      this.file = await open(path.join(this.dir, 'cache.bin'), 'w+');
    }
    return this.file;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.memBytes = 0;
    if (this.file) await this.file.close();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.file = undefined;
    this.dir = undefined;
  }
}
