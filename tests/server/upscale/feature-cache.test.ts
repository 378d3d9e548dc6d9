import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { AlignedPool } from '../../../server/upscale/aligned-pool.js';
import { DIRECT_IO_ALIGN } from '../../../server/upscale/aligned-staging.js';
import { FeatureCache } from '../../../server/upscale/feature-cache.js';
import { SpillFile } from '../../../server/upscale/spill-file.js';
import { halfBits, halfValues } from '../../../server/upscale/half-float.js';

/** a cache that closes (and deletes its file) whatever the test does */
async function withCache(
  budgetBytes: number,
  quantise: boolean,
  test: (cache: FeatureCache) => Promise<void>,
): Promise<void> {
  const cache = new FeatureCache(budgetBytes, quantise);
  try {
    await test(cache);
  } finally {
    await cache.close();
  }
}

const ramp = (n: number, seed: number): Float32Array =>
  Float32Array.from({ length: n }, (_, i) => seed + i / 7);

describe('feature cache spilled to its temporary file', () => {
  it('reuses the slots of deleted entries, so the file holds only what is alive', async () => {
    await withCache(0, false, async (cache) => {
      // a stage-by-stage job: each tile's map replaces its previous one
      for (let stage = 0; stage < 4; stage++) {
        for (let tile = 0; tile < 6; tile++) {
          const key = `${tile}:feat`;
          if (stage > 0) {
            const back = await cache.get(key);
            expect(back.data).toEqual(ramp(1000, stage - 1 + tile));
            cache.release(back.data);
            await cache.delete(key);
          }
          await cache.put(key, ramp(1000, stage + tile), [1, 10, 10, 10]);
        }
      }
      expect(cache.spilledBytes).toBe(4 * 6 * 4000);
      // six maps alive at most, plus one slot while a tile swaps its map
      expect(cache.fileBytes).toBeLessThanOrEqual(7 * 4000);
    });
  });

  it('fits a smaller entry into a larger free slot and keeps the remainder usable', async () => {
    await withCache(0, false, async (cache) => {
      await cache.put('big', ramp(300, 1), [300]);
      await cache.put('keep', ramp(50, 2), [50]);
      await cache.delete('big');
      await cache.put('a', ramp(100, 3), [100]);
      await cache.put('b', ramp(200, 4), [200]);
      expect(cache.fileBytes).toBe(350 * 4);
      expect((await cache.get('a')).data).toEqual(ramp(100, 3));
      expect((await cache.get('b')).data).toEqual(ramp(200, 4));
      expect((await cache.get('keep')).data).toEqual(ramp(50, 2));
    });
  });

  it('merges neighbouring free slots, so a larger entry fits where two smaller ones were', async () => {
    await withCache(0, false, async (cache) => {
      await cache.put('a', ramp(100, 1), [100]);
      await cache.put('b', ramp(100, 2), [100]);
      await cache.put('c', ramp(100, 3), [100]);
      await cache.delete('a');
      await cache.delete('c');
      await cache.delete('b');
      await cache.put('d', ramp(300, 4), [300]);
      expect(cache.fileBytes).toBe(300 * 4);
      expect((await cache.get('d')).data).toEqual(ramp(300, 4));
    });
  });

  it('reads into a released buffer of the same size, and never into one still held', async () => {
    await withCache(0, false, async (cache) => {
      await cache.put('x', ramp(64, 1), [64]);
      await cache.put('y', ramp(64, 2), [64]);
      const x = (await cache.get('x')).data;
      const y = (await cache.get('y')).data;
      expect(y.buffer).not.toBe(x.buffer);
      cache.release(x);
      const again = (await cache.get('y')).data;
      expect(again.buffer).toBe(x.buffer);
      expect(again).toEqual(ramp(64, 2));
      expect(y).toEqual(ramp(64, 2));
    });
  });

  it('does not recycle arrays it keeps in memory', async () => {
    await withCache(1 << 20, false, async (cache) => {
      const data = ramp(64, 5);
      await cache.put('m', data, [64]);
      const got = (await cache.get('m')).data;
      expect(got).toBe(data);
      cache.release(got);
      await cache.put('n', ramp(64, 6), [64]);
      expect((await cache.get('m')).data).toEqual(ramp(64, 5));
    });
  });

  // Detaching is how a map's memory is freed before the collector runs (free-now.ts); Node 20 lacks it.
  const canFree = 'transfer' in ArrayBuffer.prototype;

  it.skipIf(!canFree)('frees a map kept in memory once it is deleted, and the maps still kept when it closes', async () => {
    const cache = new FeatureCache(1 << 20, false);
    const deleted = ramp(64, 5);
    const kept = ramp(64, 6);
    await cache.put('m', deleted, [64]);
    await cache.put('n', kept, [64]);
    const got = (await cache.get('m')).data;
    expect(got).toEqual(ramp(64, 5));
    await cache.delete('m');
    expect(deleted.byteLength).toBe(0);
    expect(kept).toEqual(ramp(64, 6));
    await cache.close();
    expect(kept.byteLength).toBe(0);
  });

  it.skipIf(!canFree)('frees at close the read-back arrays it was given back, never one the caller still holds', async () => {
    const cache = new FeatureCache(0, false);
    await cache.put('x', ramp(64, 1), [64]);
    await cache.put('y', ramp(64, 2), [64]);
    const given = (await cache.get('x')).data;
    const held = (await cache.get('y')).data;
    cache.release(given);
    await cache.close();
    expect(given.byteLength).toBe(0);
    expect(held).toEqual(ramp(64, 2));
  });

  it('keeps uint8 entries (cache_mode 1) within one step of their range', async () => {
    await withCache(0, true, async (cache) => {
      const data = ramp(256, -3);
      await cache.put('q', data, [256]);
      const back = (await cache.get('q')).data;
      const step = (data[255]! - data[0]!) / 255;
      for (let i = 0; i < data.length; i++)
        expect(Math.abs(back[i]! - data[i]!)).toBeLessThanOrEqual(step / 2 + 1e-6);
    });
  });

  it('keeps float16 maps put as exact bit for bit, in memory and in the file, even when quantising', async () => {
    const half = Uint16Array.from({ length: 300 }, (_, i) => (i * 211) & 0xffff);
    for (const budget of [1 << 20, 0]) {
      await withCache(budget, true, async (cache) => {
        // a copy: the cache takes the array it is given over, and frees it when it closes
        await cache.put('skip', half.slice(), [1, 3, 10, 10], { exact: true });
        await cache.put('feat', ramp(300, 1), [1, 3, 10, 10]);
        const back = await cache.get('skip');
        expect(back.data).toBeInstanceOf(Uint16Array);
        expect(back.data).toEqual(half);
        expect(back.dims).toEqual([1, 3, 10, 10]);
        // the float32 map beside it is still quantised
        expect((await cache.get('feat')).data).toBeInstanceOf(Float32Array);
        expect(cache.spilledBytes).toBe(budget ? 0 : 300 * 2 + 300);
      });
    }
  });

  it('quantises float16 maps (cache_mode 1) within one step of their range and gives them back as float16', async () => {
    // the features the stages pass on: float16 bits of values from -0.06 to 0.67
    const values = ramp(256, -3).map((v) => v / 50);
    const half = Uint16Array.from(values, (v) => halfBits(v));
    const exact = Float32Array.from(half, (bits) => halfValues()[bits]!);
    const step = (exact[255]! - exact[0]!) / 255;
    for (const budget of [1 << 20, 0]) {
      await withCache(budget, true, async (cache) => {
        await cache.put('feat', half, [256]);
        const back = (await cache.get('feat')).data;
        expect(back).toBeInstanceOf(Uint16Array);
        // one byte per value, in memory or in the file
        expect(cache.spilledBytes).toBe(budget ? 0 : 256);
        for (let i = 0; i < half.length; i++) {
          const got = halfValues()[back[i]!]!;
          // half a step of the uint8 codes, then the float16 rounding of the code's value
          expect(Math.abs(got - exact[i]!)).toBeLessThanOrEqual(step / 2 + Math.abs(got) / 2048 + 1e-7);
        }
        // the ends of the range come back as they went in
        expect(back[0]).toBe(half[0]);
        expect(back[255]).toBe(half[255]);
      });
    }
  });
});

/** a cache over a direct-I/O file with a pool of page-aligned arrays, as a large job's */
async function withPooledCache(
  budgetBytes: number,
  test: (cache: FeatureCache, pool: AlignedPool, spill: SpillFile) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-pooled-cache-'));
  const pool = new AlignedPool(16 * 1024 * 1024);
  const spill = new SpillFile(0, dir, true);
  const cache = new FeatureCache(budgetBytes, false, dir, spill, pool);
  try {
    await test(cache, pool, spill);
  } finally {
    await cache.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `n` float32 values of the ramp in an array of the pool */
function pooledRamp(pool: AlignedPool, n: number, seed: number): Float32Array {
  const data = new Float32Array(pool.take(n * 4), 0, n);
  data.set(ramp(n, seed));
  return data;
}

describe('feature cache with a pool of page-aligned arrays', () => {
  it('gives a map kept in memory back to the pool when deleted, a spilled one once written, and reads maps back into the pool', async () => {
    const n = 3000; // 12,000 bytes: one 64 KiB buffer of the pool
    await withPooledCache(n * 4, async (cache, pool, spill) => {
      const kept = pooledRamp(pool, n, 1);
      await cache.put('kept', kept, [n]);
      const got = (await cache.get('kept')).data;
      expect(got).toBe(kept);
      cache.release(got); // still the entry's: not the pool's again
      const other = pool.take(n * 4);
      expect(other).not.toBe(kept.buffer);
      pool.give(other);
      const spilled = pooledRamp(pool, n, 2);
      expect(spilled.buffer).toBe(other);
      await cache.put('spilled', spilled, [n]); // past the budget: to the file, in place
      const back = (await cache.get('spilled')).data;
      expect(spill.isDirect).toBe(true);
      expect(back).toEqual(ramp(n, 2));
      // the written map's buffer went back to the pool, which lent it for the read
      expect(back.buffer).toBe(spilled.buffer);
      cache.release(back);
      await cache.delete('kept');
      const lent = [pool.take(n * 4), pool.take(n * 4)];
      expect(lent).toContain(kept.buffer);
      expect(lent).toContain(spilled.buffer);
    });
  });

  it('keeps a deleted map’s slot until its write is done, then lets another map take it', async () => {
    const n = DIRECT_IO_ALIGN; // four pages a map
    await withPooledCache(0, async (cache, pool) => {
      await cache.put('a', pooledRamp(pool, n, 1), [n]);
      await cache.delete('a'); // its write is still going on
      await cache.put('b', pooledRamp(pool, n, 2), [n]);
      expect(cache.fileBytes).toBe(2 * n * 4);
      expect((await cache.get('b')).data).toEqual(ramp(n, 2));
      await cache.put('c', pooledRamp(pool, n, 3), [n]); // a's write is done: its slot is free
      expect(cache.fileBytes).toBe(2 * n * 4);
      expect((await cache.get('c')).data).toEqual(ramp(n, 3));
      expect((await cache.get('b')).data).toEqual(ramp(n, 2));
    });
  });
});
