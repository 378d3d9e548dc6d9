// The spill file an engine keeps between jobs: each job's cache writes it from its start, over
// the pages the last job left, and at the job's end it is cut back to the kept size; the engine's
// close removes it.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ensureFeatureCacheDir, featureCacheDir } from '../../../server/upscale/feature-cache-dir.js';
import { FeatureCache } from '../../../server/upscale/feature-cache.js';
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
    expect(statSync(file).size).toBe(12 * 1024);
    expect(Array.from((await first.get('b')).data.subarray(0, 3))).toEqual([5, 6, 7]);
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

  it('with nothing kept, a job’s end removes the file and the next job makes a new one', async () => {
    const spill = new SpillFile(0, dir);
    const first = new FeatureCache(0, false, dir, spill);
    await first.put('a', map(16, 0), [16]);
    const file = first.path!;
    await first.close();
    expect(readdirSync(dir)).toEqual([]);
    const second = new FeatureCache(0, false, dir, spill);
    await second.put('a', map(16, 1), [16]);
    expect(second.path).not.toBe(file);
    await second.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('when the file cannot be cut back, a job’s end removes it instead of failing, and the next job makes a new one', async () => {
    const spill = new SpillFile(4096, dir);
    const first = new FeatureCache(0, false, dir, spill);
    await first.put('a', map(2048, 0), [2048]);
    const file = first.path!;
    await (await spill.handle()).close(); // the handle is gone under it: stat and truncate fail
    await expect(first.close()).resolves.toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
    const second = new FeatureCache(0, false, dir, spill);
    await second.put('b', map(16, 3), [16]);
    expect(second.path).not.toBe(file);
    expect(Array.from((await second.get('b')).data)).toEqual(Array.from(map(16, 3)));
    await second.close();
    await spill.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});
