// POST /upscale/batch end to end on the real engine: an event stream with queued, progress,
// result and error events per item and a final complete event. (SQLite only.)
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { makeImage, multipart, parseEventStream, type FilePart } from './upscale-helpers.js';

describe('upscale service: batch event stream', () => {
  let t: TestApp;
  let designer: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    designer = (await t.createUser('DESIGNER')).token;
  });
  afterAll(() => t?.close());

  const batch = (fields: Record<string, string | number>, files: FilePart[], token = designer) => {
    const body = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url: '/upscale-api/upscale/batch',
      headers: { ...body.headers, 'accept-language': 'en-US', authorization: `Bearer ${token}` },
      payload: body.payload,
    });
  };

  it('streams queued, progress, result and error events per item, then complete', async () => {
    const png = await makeImage('png', 32, 24);
    const corrupt = Buffer.concat([png.subarray(0, 8), Buffer.alloc(64, 1)]);
    const jpeg = await makeImage('jpeg', 20, 20);
    const huge = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]);
    const r = await batch({ model_name: 'up2x-denoise2x', tile_mode: 0 }, [
      { field: 'images', filename: 'one.png', data: png },
      { field: 'images', filename: 'two.png', data: corrupt },
      { field: 'images', filename: 'three.jpg', data: jpeg },
      { field: 'images', filename: 'four.png', data: huge },
      { field: 'images', filename: 'five.txt', data: Buffer.from('hello, not an image') },
    ]);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(r.headers['cache-control']).toContain('no-cache');
    expect(
      r.body
        .split('\n\n')
        .filter(Boolean)
        .every((block) => block.startsWith('data: ') || block.startsWith(':')),
    ).toBe(true);
    const events = parseEventStream(r.body);

    expect(events.slice(0, 5)).toEqual(
      [0, 1, 2, 3, 4].map((index) => expect.objectContaining({ type: 'queued', index, total: 5 })),
    );
    expect(events.at(-1)).toEqual({
      type: 'complete',
      total: 5,
      succeeded: 2,
      failed: 3,
      message: 'Batch finished: 2 succeeded, 3 failed',
    });

    const of = (index: number) => events.filter((e) => e.index === index && e.type !== 'queued');
    for (const [index, side] of [
      [0, [32, 24]],
      [2, [20, 20]],
    ] as const) {
      const mine = of(index);
      const progress = mine.filter((e) => e.type === 'progress').map((e) => e.fraction as number);
      expect(progress[0]).toBe(0);
      expect(progress.at(-1)).toBe(1);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
      const result = mine.at(-1)!;
      expect(result).toMatchObject({
        type: 'result',
        index,
        width: side[0] * 2,
        height: side[1] * 2,
        message: 'Image upscaled',
      });
      const file = await t.app.inject({ method: 'GET', url: result.url as string });
      expect(file.statusCode).toBe(200);
      const meta = await sharp(file.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([side[0] * 2, side[1] * 2]);
    }
    expect(of(1)).toEqual([
      {
        type: 'error',
        index: 1,
        status: 422,
        code: 'corrupt_image',
        message: 'The image file is damaged and cannot be read',
      },
    ]);
    expect(of(3)).toEqual([
      {
        type: 'error',
        index: 3,
        status: 413,
        code: 'file_too_large',
        message: 'The image is larger than 10 MB',
      },
    ]);
    expect(of(4)).toEqual([
      expect.objectContaining({ type: 'error', index: 4, status: 415, code: 'unsupported_type' }),
    ]);
    // Items run in order: each finishes before the next starts.
    const order = events.filter((e) => e.type !== 'queued' && e.type !== 'complete').map((e) => e.index);
    expect(order).toEqual([...order].sort());
  });

  it('refuses the whole batch before streaming when the request itself is wrong', async () => {
    const img = { filename: 'a.png', data: await makeImage('png', 8, 8) };
    const unknown = await batch({ model_name: 'nope' }, [img]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ status: 'error', code: 'unknown_model' });
    const bad = await batch({ model_name: 'up2x-conservative', alpha: 9 }, [img]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_parameter', field: 'alpha' });
    const empty = await batch({ model_name: 'up2x-conservative' }, []);
    expect(empty.json()).toMatchObject({ code: 'missing_image' });
    const tooMany = await batch(
      { model_name: 'up2x-conservative' },
      Array.from({ length: 11 }, () => img),
    );
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json()).toEqual({
      status: 'error',
      code: 'too_many_files',
      message: 'At most 10 images per request',
    });
    const general = (await t.createUser('GENERAL')).token;
    expect((await batch({ model_name: 'up2x-conservative' }, [img], general)).statusCode).toBe(403);
  });
});
