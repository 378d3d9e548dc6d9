// @vitest-environment node
// The real streaming build, re-opened with fflate's own unzip.
import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  buildResultsZip,
  type ZipResultItem,
} from '../../../src/lib/zip/build-results-zip';

function bytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

function item(sourceName: string, modelName: string, data: Uint8Array, type = 'image/png'): ZipResultItem {
  return {
    sourceName,
    modelName,
    scale: 2,
    width: 64,
    height: 48,
    durationMs: 1500,
    blob: new Blob([data as BlobPart], { type }),
  };
}

describe('buildResultsZip', () => {
  it('produces a ZIP whose entries match the inputs, images stored and the manifest deflated', async () => {
    const a = bytes(300_000, 1);
    const b = bytes(70_000, 2);
    const c = bytes(0, 3);
    const progress: number[] = [];
    let total = 0;
    const blob = await buildResultsZip(
      [
        item('布料.jpg', 'up2x-conservative', a),
        item('布料.jpg', 'up2x-denoise3x', b, 'image/jpeg'),
        item('empty.png', 'up2x-no-denoise', c),
      ],
      {
        chunkBytes: 64 * 1024,
        onProgress: (p) => {
          progress.push(p.processedBytes);
          total = p.totalBytes;
        },
      },
    );
    expect(blob.type).toBe('application/zip');
    const raw = new Uint8Array(await blob.arrayBuffer());
    const files = unzipSync(raw);
    expect(Object.keys(files).sort()).toEqual(
      [
        'manifest.csv',
        'empty_up2x-no-denoise.png',
        '布料_up2x-conservative.png',
        '布料_up2x-denoise3x.jpg',
      ].sort(),
    );
    // Byte for byte with Buffer.equals: toEqual walks 300,000 elements one by one (5-7 s on a
    // loaded 2-core machine, past the test's time limit).
    const same = (entry: Uint8Array | undefined, expected: Uint8Array) =>
      entry !== undefined && Buffer.from(entry).equals(Buffer.from(expected));
    expect(same(files['布料_up2x-conservative.png'], a)).toBe(true);
    expect(same(files['布料_up2x-denoise3x.jpg'], b)).toBe(true);
    expect(same(files['empty_up2x-no-denoise.png'], c)).toBe(true);
    const manifest = strFromU8(files['manifest.csv'] ?? new Uint8Array());
    expect(manifest.split('\r\n')[1]).toBe(
      '布料.jpg,布料_up2x-conservative.png,up2x-conservative,2,64,48,300000,1500',
    );
    // Stored: the archive is barely larger than the random (incompressible) payload.
    expect(raw.length).toBeLessThan(a.length + b.length + 2000);
    // The first local header's compression method (offset 8) is 0 = stored.
    expect(new DataView(raw.buffer).getUint16(8, true)).toBe(0);
    expect(progress.length).toBeGreaterThan(5);
    expect(progress.at(-1)).toBe(total);
    expect(total).toBeGreaterThan(a.length + b.length);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
  });

  it('stops when cancelled mid-build and rejects with an AbortError', async () => {
    const controller = new AbortController();
    let seen = 0;
    const build = buildResultsZip(
      [
        item('a.png', 'up2x-conservative', bytes(400_000, 4)),
        item('b.png', 'up2x-conservative', bytes(400_000, 5)),
      ],
      {
        chunkBytes: 50_000,
        signal: controller.signal,
        onProgress: (p) => {
          seen = p.processedBytes;
          if (p.processedBytes >= 200_000) controller.abort();
        },
      },
    );
    await expect(build).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toBeLessThan(800_000);
  });

  it('rejects at once when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      buildResultsZip([item('a.png', 'm', bytes(10, 1))], { signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('builds byte-identical archives for a fixed time', async () => {
    const input = [item('x.png', 'up2x-conservative', bytes(1000, 9))];
    const mtime = new Date('2026-01-01T00:00:00Z');
    const one = new Uint8Array(await (await buildResultsZip(input, { mtime })).arrayBuffer());
    const two = new Uint8Array(await (await buildResultsZip(input, { mtime })).arrayBuffer());
    expect(one).toEqual(two);
  });
});
