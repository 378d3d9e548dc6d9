// @vitest-environment node
// Node's own Response and Blob together, as the service worker has the browser's: under jsdom its
// Blob and Node's Response mix, and on Node 24 a sliced Blob body went out as the text "[object Blob]".
// Kept videos (issue 25): byte ranges answered from a whole file, and which videos make room for a
// new one within the budget (least recently played first).
import { describe, expect, it } from 'vitest';
import { keptVideoKey, videosToEvict, type KeptVideo } from '../../../src/lib/offline/kept-videos';
import { parseRange, rangeResponse } from '../../../src/lib/offline/video-range';

describe('byte ranges from a kept file', () => {
  it('parses one range against the size', () => {
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-30', 100)).toEqual({ start: 70, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBeNull();
    expect(parseRange('bytes=5-2', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });

  it('answers 206 with the slice, 200 without a range, 416 past the end', async () => {
    const whole = () => new Response(new Uint8Array([...Array(100).keys()]), { headers: { 'content-type': 'video/mp4' } });
    const part = await rangeResponse('bytes=10-19', whole());
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/100');
    expect(part.headers.get('content-length')).toBe('10');
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const all = await rangeResponse(null, whole());
    expect(all.status).toBe(200);
    expect(all.headers.get('accept-ranges')).toBe('bytes');
    expect((await all.arrayBuffer()).byteLength).toBe(100);
    const past = await rangeResponse('bytes=200-', whole());
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */100');
  });
});

describe('room for a new video', () => {
  const video = (videoId: number, bytes: number, lastUsed: number): KeptVideo => ({
    key: `https://loom.test/api/files/${videoId}/v.mp4`,
    videoId,
    bytes,
    keptAt: 0,
    lastUsed,
    chosen: true,
  });

  it('removes the least recently played first, only as many as needed', () => {
    const list = [video(1, 40, 300), video(2, 40, 100), video(3, 40, 200)];
    expect(videosToEvict(list, 10, 200)).toEqual([]);
    expect(videosToEvict(list, 50, 120).map((v) => v.videoId)).toEqual([2, 3]);
    expect(videosToEvict(list, 0, 100).map((v) => v.videoId)).toEqual([2]);
  });

  it('keys a signed link by its path, so a re-signed link finds the same file', () => {
    expect(keptVideoKey('/api/files/7/clip.mp4?expires=1&sig=a', 'https://loom.test')).toBe(
      keptVideoKey('https://loom.test/api/files/7/clip.mp4?expires=2&sig=b', 'https://loom.test'),
    );
  });
});
