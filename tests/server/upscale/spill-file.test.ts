// The spill file an engine keeps between jobs: each job's cache writes it from its start, over
// the pages the last job left, and at the job's end it is cut back to the kept size; the engine's
// close removes it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ensureFeatureCacheDir, featureCacheDir } from '../../../server/upscale/feature-cache-dir.js';
import { FeatureCache } from '../../../server/upscale/feature-cache.js';
import { AlignedPool } from '../../../server/upscale/aligned-pool.js';
import { DIRECT_IO_ALIGN, STAGING_BYTES } from '../../../server/upscale/aligned-staging.js';
import { SpillFile } from '../../../server/upscale/spill-file.js';

let base: string;
let dir: string;

beforeEach(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'loom-spill-test-'));
  dir = await ensureFeatureCacheDir(featureCacheDir(base));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A map of `n` float32 values, each its index plus `seed`. */
const map = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => i + seed);

describe('the spill file kept between jobs', () => {
  it('is written from its start by each job, cut back to the kept size at its end, and removed on close', async () => {
    const spill = new SpillFile(4096, dir);
    const first = new FeatureCache(0, false, dir, spill);
    await first.put('a', map(2048, 0), [2048]); // 8 KiB, all spilled (no RAM budget)
    await first.put('b', map(1024, 5), [1024]);
    const file = first.path!;
    // maps are written behind the job: reading one waits for the writes before it
    expect(Array.from((await first.get('b')).data.subarray(0, 3))).toEqual([5, 6, 7]);
    expect(statSync(file).size).toBe(12 * 1024);
    await first.close();
    // The same file stays, cut back to the kept 4 KiB.
    expect(readdirSync(dir)).toEqual([path.basename(file)]);
    expect(statSync(file).size).toBe(4096);

    const second = new FeatureCache(0, false, dir, spill);
    await second.put('c', map(512, 9), [512]); // 2 KiB: over the kept pages, the file does not grow
    expect(second.path).toBe(file);
    expect(statSync(file).size).toBe(4096);
    const back = await second.get('c');
    expect(Array.from(back.data)).toEqual(Array.from(map(512, 9)));
    await expect(second.get('a')).rejects.toThrow(/not cached/);
    await second.close();

    await spill.close();
    expect(readdirSync(dir)).toEqual([]);
    expect(spill.path).toBeUndefined();
  });

  it('with nothing kept, a job’s end lets the file go behind the job, the next job makes a new one, and close waits for the removal', async () => {
    const spill = new SpillFile(0, dir);
    const first = new FeatureCache(0, false, dir, spill);
    await first.put('a', map(16, 0), [16]);
    const file = first.path!;
    await first.close();
    // let go at once, its removal going on behind the job; `removed` waits for it (a job's free-space check does)
    expect(spill.path).toBeUndefined();
    await spill.removed();
    expect(readdirSync(dir)).toEqual([]);
    const second = new FeatureCache(0, false, dir, spill);
    await second.put('a', map(16, 1), [16]);
    expect(second.path).not.toBe(file);
    expect(Array.from((await second.get('a')).data)).toEqual(Array.from(map(16, 1)));
    await second.close();
    await spill.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('when the file cannot be cut back, a job’s end removes it instead of failing, and the next job makes a new one', async () => {
    const spill = new SpillFile(4096, dir);
    const first = new FeatureCache(0, false, dir, spill);
    await first.put('a', map(2048, 0), [2048]);
    const file = first.path!;
    await (await spill.handle()).close(); // the handle is gone under it: stat and truncate fail
    await expect(first.close()).resolves.toBeUndefined();
    expect(spill.path).toBeUndefined(); // let go, and removed behind the job
    const second = new FeatureCache(0, false, dir, spill);
    await second.put('b', map(16, 3), [16]);
    expect(second.path).not.toBe(file);
    expect(Array.from((await second.get('b')).data)).toEqual(Array.from(map(16, 3)));
    await second.close();
    await spill.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});

const bytesOf = (a: Float32Array | Uint16Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Bytes of the file in the page cache (util-linux's fincore). */
const cachedBytes = (file: string): number =>
  Number(execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', file], { encoding: 'utf8' }).trim());

describe('the spill file with direct I/O', () => {
  it('bypasses the page cache where the file system allows it, and gives back maps of any size bit for bit', async () => {
    const spill = new SpillFile(0, dir, true);
    const cache = new FeatureCache(0, false, dir, spill);
    try {
      // sizes off the page, and one past the staging buffer (moved in several transfers)
      const sizes = [1, 1000, DIRECT_IO_ALIGN / 4 + 3, STAGING_BYTES / 4 + 5000];
      for (const [i, n] of sizes.entries()) await cache.put(`m${i}`, map(n, i * 7), [n]);
      expect(spill.isDirect).toBe(true);
      for (const [i, n] of sizes.entries()) {
        const back = await cache.get(`m${i}`);
        expect(bytesOf(back.data).equals(bytesOf(map(n, i * 7)))).toBe(true);
        cache.release(back.data);
      }
      // every slot is whole pages, so each starts on a page
      expect(cache.fileBytes % DIRECT_IO_ALIGN).toBe(0);
      expect(cache.fileBytes).toBe(sizes.reduce((sum, n) => sum + Math.ceil((n * 4) / DIRECT_IO_ALIGN) * DIRECT_IO_ALIGN, 0));
      expect(statSync(cache.path!).size).toBe(cache.fileBytes);
      expect(cachedBytes(cache.path!)).toBe(0);
    } finally {
      await cache.close();
    }
    await spill.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reuses freed slots of whole pages, and a map read right after its put waits for its write', async () => {
    const spill = new SpillFile(0, dir, true);
    const cache = new FeatureCache(0, false, dir, spill);
    try {
      for (let round = 0; round < 5; round++) {
        await cache.put('a', map(3000, round), [3000]);
        await cache.put('b', map(5000, round + 100), [5000]);
        expect((await cache.get('a')).data).toEqual(map(3000, round));
        expect((await cache.get('b')).data).toEqual(map(5000, round + 100));
      }
      // two maps alive at a time, plus one slot while a map is replaced
      expect(cache.fileBytes).toBeLessThanOrEqual(3 * 5 * DIRECT_IO_ALIGN);
    } finally {
      await cache.close();
    }
  });

  it('reports a write that failed at the read of its map, and the job’s end still lets the file go', async () => {
    const spill = new SpillFile(0, dir, true);
    const cache = new FeatureCache(0, false, dir, spill);
    await cache.put('a', map(16, 0), [16]);
    await expect(cache.get('a')).resolves.toBeDefined();
    await (await spill.handle()).close(); // the file's handle is gone under the cache: writes fail
    await cache.put('b', map(16, 1), [16]);
    await expect(cache.get('b')).rejects.toThrow();
    await expect(cache.close()).resolves.toBeUndefined();
    expect(spill.path).toBeUndefined();
    await spill.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads many maps at once, more chunks than it reads together, each bit for bit', async () => {
    const spill = new SpillFile(0, dir, true);
    const cache = new FeatureCache(0, false, dir, spill);
    try {
      // 24 maps of 1 to 3 chunks each (a chunk is 4 MiB): about 50 chunks asked for together
      const sizes = Array.from({ length: 24 }, (_, i) => (1 + (i % 3)) * 1024 * 1024 - 1000 * i);
      for (const [i, n] of sizes.entries()) await cache.put(`m${i}`, map(n, i), [n]);
      expect(spill.isDirect).toBe(true);
      const backs = await Promise.all(sizes.map((_, i) => cache.get(`m${i}`)));
      for (const [i, n] of sizes.entries())
        expect(bytesOf(backs[i]!.data).equals(bytesOf(map(n, i))), `map ${i}`).toBe(true);
    } finally {
      await cache.close();
    }
    await spill.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes and reads page-aligned maps in place, beside staged ones, each bit for bit', async () => {
    const spill = new SpillFile(0, dir, true);
    const pool = new AlignedPool(64 * 1024 * 1024);
    // 9 MiB and a bit (three chunks, the last one short) and a map under a page
    const sizes = [(9 * 1024 * 1024) / 4 + 1001, 700];
    const aligned = sizes.map((n, i) => {
      const into = new Float32Array(pool.take(n * 4), 0, n);
      into.set(map(n, i * 3));
      return new Uint8Array(into.buffer, 0, n * 4);
    });
    const staged = new Uint8Array(map(5000, 9).buffer);
    const slots = [0, 10 * 1024 * 1024, 11 * 1024 * 1024];
    try {
      await Promise.all([spill.write(aligned[0]!, slots[0]!), spill.write(staged, slots[1]!), spill.write(aligned[1]!, slots[2]!)]);
      expect(spill.isDirect).toBe(true);
      // read back into pool arrays (in place) and into a plain one (through the staging)
      for (const [i, n] of sizes.entries()) {
        const back = new Uint8Array(pool.take(n * 4), 0, n * 4);
        await spill.read(back, slots[i === 0 ? 0 : 2]!);
        expect(Buffer.from(back).equals(Buffer.from(map(n, i * 3).buffer))).toBe(true);
        const plain = new Uint8Array(n * 4);
        await spill.read(plain, slots[i === 0 ? 0 : 2]!);
        expect(Buffer.from(plain).equals(Buffer.from(map(n, i * 3).buffer))).toBe(true);
      }
      const back = new Uint8Array(pool.take(staged.length), 0, staged.length);
      await spill.read(back, slots[1]!);
      expect(Buffer.from(back).equals(Buffer.from(staged))).toBe(true);
    } finally {
      await spill.close();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('closes only after every read asked for, each read in full', async () => {
    const spill = new SpillFile(0, dir, true);
    const bytes = new Uint8Array(map(3 * 1024 * 1024, 1).buffer); // 12 MiB: three chunks
    await spill.write(bytes, 0);
    const outs = Array.from({ length: 8 }, () => new Uint8Array(bytes.length));
    const reads = outs.map((into) => spill.read(into, 0)); // more chunks than are read together
    await spill.close();
    expect((await Promise.allSettled(reads)).map((r) => r.status)).toEqual(outs.map(() => 'fulfilled'));
    for (const into of outs) expect(Buffer.from(into).equals(Buffer.from(bytes))).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});
