// Page-aligned arrays for maps moved in place under direct I/O: which arrays count as aligned, and
// how buffers are reused and bounded.
import { describe, expect, it } from 'vitest';

import { AlignedPool, isPageAligned } from '../../../server/upscale/aligned-pool.js';
import { DIRECT_IO_ALIGN } from '../../../server/upscale/aligned-staging.js';

describe('aligned pool', () => {
  it('counts as aligned only its own arrays that start on a page and whose buffer holds their whole pages', () => {
    const pool = new AlignedPool(0);
    const buf = pool.take(100_000); // rounded up to whole 64 KiB pages: 131072 bytes
    expect(buf.byteLength).toBe(131_072);
    expect(isPageAligned(new Uint16Array(buf, 0, 50_000))).toBe(true);
    expect(isPageAligned(new Uint8Array(buf, DIRECT_IO_ALIGN, 1000))).toBe(true);
    expect(isPageAligned(new Uint8Array(buf, 64, 1000))).toBe(false);
    // the last page of the buffer holds a map of a page, and the whole pages of a longer one start earlier
    expect(isPageAligned(new Uint8Array(buf, buf.byteLength - DIRECT_IO_ALIGN, DIRECT_IO_ALIGN))).toBe(true);
    expect(
      isPageAligned(new Uint8Array(buf, buf.byteLength - 2 * DIRECT_IO_ALIGN, DIRECT_IO_ALIGN + 1)),
    ).toBe(true);
    expect(isPageAligned(new Uint8Array(new ArrayBuffer(131_072), 0, 1000))).toBe(false);
  });

  it('lends a given-back buffer again for a take of its size, the newest first, up to the bytes it keeps', () => {
    const pool = new AlignedPool(300_000);
    const a = pool.take(70_000);
    const b = pool.take(70_000);
    expect(a).not.toBe(b);
    pool.give(a);
    pool.give(a); // given twice, kept once
    pool.give(b); // 2 x 131,072 bytes: both kept
    expect(pool.take(131_072)).toBe(b);
    expect(pool.take(131_072)).toBe(a);
    expect(pool.take(131_072)).not.toBe(a); // none left: a new one
    pool.give(new ArrayBuffer(131_072)); // not the pool's: ignored
    expect(pool.owns(a)).toBe(true);
    expect(pool.owns(new ArrayBuffer(8))).toBe(false);
  });

  it('makes room for a buffer given back by dropping the oldest ones, of any size', () => {
    const pool = new AlignedPool(300_000);
    const small = pool.take(70_000); // 131,072 bytes
    const large = pool.take(140_000); // 196,608 bytes
    const other = pool.take(70_000);
    pool.give(small);
    pool.give(large); // 327,680 bytes past the 300,000 kept: small, the oldest, goes
    expect(pool.take(131_072)).not.toBe(small);
    pool.give(other); // large goes
    expect(pool.take(196_608)).not.toBe(large);
    expect(pool.take(131_072)).toBe(other);
    pool.give(other);
    const huge = pool.take(400_000);
    pool.give(huge); // larger than all it keeps: left to the collector, and nothing dropped for it
    expect(pool.take(400_000)).not.toBe(huge);
    expect(pool.take(131_072)).toBe(other);
  });
});
