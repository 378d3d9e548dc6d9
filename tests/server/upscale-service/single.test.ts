// The upscale group inside the companion server, on the real Real-CUGAN engine with tiny images:
// model list, single upscale of every accepted type, signed result links, and every refusal.
// (SQLite only: the service's behaviour does not depend on the database.)
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { makeImage, multipart, type FilePart } from './upscale-helpers.js';

interface SingleReply {
  status: string;
  url: string;
  filename: string;
  message: string;
  width: number;
  height: number;
  code?: string;
  field?: string;
}

describe('upscale service: models and single upscale', () => {
  let t: TestApp;
  let designer: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    designer = (await t.createUser('DESIGNER')).token;
  });
  afterAll(() => t?.close());

  const post = async (
    fields: Record<string, string | number>,
    files: FilePart[],
    token: string | null = designer,
    lang = 'en-US',
  ) => {
    const body = multipart(fields, files);
    const r = await t.app.inject({
      method: 'POST',
      url: '/upscale-api/upscale/single',
      headers: {
        ...body.headers,
        'accept-language': lang,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      payload: body.payload,
    });
    return { status: r.statusCode, body: r.json<SingleReply>(), headers: r.headers };
  };

  const download = (url: string) => t.app.inject({ method: 'GET', url });

  it('lists the Real-CUGAN models by name without file suffix, 2x first, with labels', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/upscale-api/models',
      headers: { authorization: `Bearer ${designer}` },
    });
    expect(r.statusCode).toBe(200);
    const body = r.json<{
      status: string;
      models: { name: string; scale: number; category: string; recommended: boolean }[];
    }>();
    expect(body.status).toBe('success');
    const names = body.models.map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'up2x-conservative',
        'up2x-denoise1x',
        'up2x-denoise2x',
        'up2x-denoise3x',
        'up2x-no-denoise',
        'up4x-conservative',
      ]),
    );
    expect(names.every((n) => !/\.(pth|param|bin)$/.test(n))).toBe(true);
    expect(body.models[0]!.scale).toBe(2);
    expect(body.models.find((m) => m.name === 'up4x-no-denoise')).toMatchObject({
      scale: 4,
      category: '4x',
      recommended: false,
    });
    expect(body.models.find((m) => m.name === 'up2x-denoise2x')).toMatchObject({
      category: '2x',
      recommended: true,
    });
    // 4x sorts before 3x ("other").
    expect(names.indexOf('up4x-conservative')).toBeLessThan(names.indexOf('up3x-conservative'));
  });

  it.each([
    ['png', 'up2x-conservative', 2],
    ['jpeg', 'up2x-conservative', 2],
    ['gif', 'up2x-conservative', 2],
    ['webp', 'up4x-conservative', 4],
  ] as const)(
    'upscales a real %s with %s and the link serves the image at %ix',
    async (format, model, scale) => {
      const input = await makeImage(format, 40, 24);
      const r = await post({ model_name: model }, [
        { filename: `fabric sample.${format}`, contentType: `image/${format}`, data: input },
      ]);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: 'success',
        message: 'Image upscaled',
        width: 40 * scale,
        height: 24 * scale,
      });
      expect(r.body.filename).toBe(`fabric_sample_${model}.png`);
      expect(r.body.url).toMatch(
        new RegExp(
          `^/upscale-api/results/[A-Za-z0-9_-]{22}/${r.body.filename}\\?expires=\\d+&sig=[A-Za-z0-9_-]+$`,
        ),
      );
      // No bearer header: the signature is the check.
      const file = await download(r.body.url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      const meta = await sharp(file.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 40 * scale, 24 * scale]);
    },
  );

  it('honours tile_mode, cache_mode, alpha and the output format, and keeps transparency', async () => {
    const input = await makeImage('png', 48, 32, true);
    const r = await post(
      { model_name: 'up2x-no-denoise', tile_mode: 2, cache_mode: 3, alpha: 1.2, format: 'webp' },
      [{ filename: 'a.png', data: input }],
    );
    expect(r.status).toBe(200);
    expect(r.body.filename).toBe('a_up2x-no-denoise.webp');
    const file = await download(r.body.url);
    expect(file.headers['content-type']).toBe('image/webp');
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['webp', 96, 64, true]);

    const jpeg = await post({ model_name: 'up2x-conservative', format: 'jpeg' }, [
      { filename: '图案.png', data: await makeImage('png', 16, 16) },
    ]);
    expect(jpeg.body.filename).toBe('图案_up2x-conservative.jpg');
    const jfile = await download(jpeg.body.url);
    expect(jfile.statusCode).toBe(200);
    expect(jfile.headers['content-type']).toBe('image/jpeg');
  });

  it('answers a repeat with the same Idempotency-Key with the first result instead of upscaling again', async () => {
    const send = async (data: Buffer, key: string) => {
      const body = multipart({ model_name: 'up2x-conservative' }, [{ filename: 'k.png', data }]);
      const r = await t.app.inject({
        method: 'POST',
        url: '/upscale-api/upscale/single',
        headers: { ...body.headers, authorization: `Bearer ${designer}`, 'idempotency-key': key },
        payload: body.payload,
      });
      return r.json<SingleReply>();
    };
    const img = await makeImage('png', 12, 12);
    const first = await send(img, 'key-1');
    expect(first.status).toBe('success');
    expect((await send(img, 'key-1')).url).toBe(first.url);
    // Another key, or the same key with another image, is another request.
    expect((await send(img, 'key-2')).url).not.toBe(first.url);
    expect((await send(await makeImage('png', 14, 12), 'key-1')).url).not.toBe(first.url);
  });

  it('refuses forged, altered and expired links; the sweep removes expired results', async () => {
    const r = await post({ model_name: 'up2x-conservative' }, [
      { filename: 'x.png', data: await makeImage('png', 16, 16) },
    ]);
    const url = r.body.url;
    const [pathPart, query] = url.split('?') as [string, string];
    const params = new URLSearchParams(query);
    const forged = `${pathPart}?expires=${params.get('expires')}&sig=${'A'.repeat(43)}`;
    const extended = `${pathPart}?expires=${Number(params.get('expires')) + 3600}&sig=${params.get('sig')}`;
    const renamed = `${pathPart.replace(/[^/]+$/, 'other.png')}?${query}`;
    for (const bad of [forged, extended, renamed, pathPart, `${pathPart}?expires=abc&sig=x`]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: bad,
        headers: { 'accept-language': 'en-US' },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        status: 'error',
        code: 'link_invalid',
        message: 'The download link is invalid or has expired',
      });
    }
    expect((await download(url)).statusCode).toBe(200);

    const id = pathPart.split('/')[3]!;
    const dir = path.join(t.dataDir, 'upscale-results', id);
    expect(existsSync(dir)).toBe(true);
    expect(await t.app.upscale!.sweep()).toBe(0);
    t.advance(24 * 3600 + 1);
    const expired = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'zh-CN' } });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({
      status: 'error',
      code: 'link_invalid',
      message: '下载链接无效或已过期',
    });
    expect(await t.app.upscale!.sweep()).toBeGreaterThanOrEqual(1);
    expect(existsSync(dir)).toBe(false);
    // Tokens follow the moved clock: sign in again for the tests after this one.
    designer = (await t.createUser('DESIGNER')).token;
  });

  it('refuses a file whose bytes are not an image, whatever it claims to be (415)', async () => {
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(200, 7)]);
    const r = await post({ model_name: 'up2x-conservative' }, [
      { filename: 'photo.png', contentType: 'image/png', data: exe },
    ]);
    expect(r.status).toBe(415);
    expect(r.body).toEqual({
      status: 'error',
      code: 'unsupported_type',
      message: 'Unsupported image type; JPEG, PNG, GIF and WebP are supported',
    });
    // A real image of another type (TIFF) is refused as well.
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
      .tiff()
      .toBuffer();
    expect(
      (await post({ model_name: 'up2x-conservative' }, [{ filename: 't.png', data: tiff }])).status,
    ).toBe(415);
  });

  it('accepts an upload just under 10 MB and refuses one over it (413)', async () => {
    const png = await makeImage('png', 8, 8);
    // Bytes after the PNG's end chunk are ignored by decoders: a large file that upscales fast.
    const justUnder = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 - png.length)]);
    const ok = await post({ model_name: 'up2x-conservative' }, [{ filename: 'padded.png', data: justUnder }]);
    expect(ok.status).toBe(200);
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    const r = await post({ model_name: 'up2x-conservative' }, [{ filename: 'big.png', data: big }]);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({
      status: 'error',
      code: 'file_too_large',
      message: 'The image is larger than 10 MB',
    });
  });

  it('refuses corrupt data (422): a broken header and a truncated body', async () => {
    const png = await makeImage('png', 64, 64);
    const garbage = Buffer.concat([png.subarray(0, 8), Buffer.alloc(100, 0x41)]);
    const r1 = await post({ model_name: 'up2x-conservative' }, [{ filename: 'bad.png', data: garbage }]);
    expect(r1.status).toBe(422);
    expect(r1.body).toMatchObject({ status: 'error', code: 'corrupt_image' });
    const jpeg = await makeImage('jpeg', 64, 64);
    const r2 = await post({ model_name: 'up2x-conservative' }, [
      { filename: 'cut.jpg', data: jpeg.subarray(0, Math.floor(jpeg.length / 2)) },
    ]);
    expect(r2.status).toBe(422);
    expect(r2.body).toMatchObject({
      status: 'error',
      code: 'corrupt_image',
      message: 'The image file is damaged and cannot be read',
    });
  });

  it('refuses an image with more pixels than the limit, before decoding it (413)', async () => {
    // 2100×2100 of one colour: a few kilobytes on the wire, 4.4 MP once decoded.
    const bomb = await sharp({ create: { width: 2100, height: 2100, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(100_000);
    const r = await post({ model_name: 'up2x-conservative' }, [{ filename: 'bomb.png', data: bomb }]);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({
      status: 'error',
      code: 'too_many_pixels',
      message: 'The image has too many pixels (limit 4200000); please use a smaller image',
    });
  });

  it('refuses a sliver of an image from its header, naming the limit (422): a 4,000,000x1 PNG and a 7 px side', async () => {
    // A few kilobytes on the wire and within the pixel limit; it held the engine for minutes.
    const sliver = await sharp({
      create: { width: 4_000_000, height: 1, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    expect(sliver.length).toBeLessThan(100_000);
    const r = await post({ model_name: 'up2x-conservative' }, [{ filename: 'sliver.png', data: sliver }]);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      status: 'error',
      code: 'image_too_narrow',
      message: 'The image is too narrow: each side must be at least 8 pixels',
    });
    const long = await makeImage('png', 33 * 16, 16);
    const l = await post(
      { model_name: 'up2x-conservative' },
      [{ filename: 'long.png', data: long }],
      designer,
      'zh-CN',
    );
    expect(l.status).toBe(422);
    expect(l.body).toEqual({
      status: 'error',
      code: 'aspect_ratio_too_large',
      message: '图片过于细长：长边最多为短边的 32 倍，请裁剪后再试',
    });
    const seven = await makeImage('png', 7, 40);
    const messages = [];
    for (const lang of ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID']) {
      const x = await post(
        { model_name: 'up2x-conservative' },
        [{ filename: 's.png', data: seven }],
        designer,
        lang,
      );
      expect(x.status).toBe(422);
      expect(x.body.message).toContain('8');
      messages.push(x.body.message);
    }
    expect(new Set(messages).size).toBe(5);
    // At the limits an image is accepted: 8 px across, 32 times as long.
    expect(
      (
        await post({ model_name: 'up2x-conservative' }, [
          { filename: 'edge.png', data: await makeImage('png', 256, 8) },
        ])
      ).status,
    ).toBe(200);
  });

  it('refuses an unknown or missing model (400)', async () => {
    const img = [{ filename: 'a.png', data: await makeImage('png', 8, 8) }];
    const r = await post({ model_name: 'up8x-magic' }, img);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      status: 'error',
      code: 'unknown_model',
      message: 'Unknown model: up8x-magic',
      field: 'model_name',
    });
    const missing = await post({}, img);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'missing_model', field: 'model_name' });
    // The reference service's names carried a .pth suffix: tolerated.
    expect((await post({ model_name: 'up2x-conservative.pth' }, img)).status).toBe(200);
  });

  it.each([
    ['tile_mode', '5'],
    ['tile_mode', '-1'],
    ['tile_mode', '1.5'],
    ['tile_mode', 'abc'],
    ['cache_mode', '4'],
    ['alpha', '0.1'],
    ['alpha', '3'],
    ['alpha', 'NaN'],
    ['format', 'bmp'],
  ])('refuses %s=%s (400)', async (field, value) => {
    const r = await post({ model_name: 'up2x-conservative', [field]: value }, [
      { filename: 'a.png', data: await makeImage('png', 8, 8) },
    ]);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 'error', code: 'invalid_parameter', field });
    expect(r.body.message).toMatch(new RegExp(`^Invalid ${field}; allowed: `));
  });

  it('refuses a request without an image or not sent as multipart', async () => {
    const r = await post({ model_name: 'up2x-conservative' }, []);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 'error', code: 'missing_image' });
    const json = await t.app.inject({
      method: 'POST',
      url: '/upscale-api/upscale/single',
      headers: { authorization: `Bearer ${designer}`, 'accept-language': 'en-US' },
      payload: { model_name: 'up2x-conservative' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ status: 'error', code: 'not_multipart' });
  });

  it('answers a malformed multipart body with 400, not a crash', async () => {
    const body = multipart({ model_name: 'up2x-conservative' }, [
      { filename: 'a.png', data: await makeImage('png', 8, 8) },
    ]);
    const cut = body.payload.subarray(0, body.payload.length - 30);
    const cases: [Buffer, string][] = [
      [cut, body.headers['content-type']!],
      [Buffer.from('garbage'), body.headers['content-type']!],
      [Buffer.from('x'), 'multipart/form-data'],
    ];
    for (const [payload, type] of cases) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/upscale-api/upscale/single',
        headers: { 'content-type': type, authorization: `Bearer ${designer}`, 'accept-language': 'en-US' },
        payload,
      });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({ status: 'error', code: 'bad_request', message: 'The request is malformed' });
    }
  });

  it('answers 401 without a valid token and 403 to a GENERAL user, in the service shape and the caller language', async () => {
    const img = [{ filename: 'a.png', data: await makeImage('png', 8, 8) }];
    const none = await post({ model_name: 'up2x-conservative' }, img, null, 'vi-VN');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      status: 'error',
      code: 'unauthorized',
      message: 'Phiên đăng nhập đã hết hạn, vui lòng đăng nhập lại',
    });
    expect((await post({ model_name: 'up2x-conservative' }, img, 'not-a-token')).status).toBe(401);
    const general = (await t.createUser('GENERAL')).token;
    const denied = await post({ model_name: 'up2x-conservative' }, img, general, 'th-TH');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ status: 'error', code: 'forbidden', message: 'ไม่มีสิทธิ์' });
    const models = await t.app.inject({
      method: 'GET',
      url: '/upscale-api/models',
      headers: { authorization: `Bearer ${general}`, 'accept-language': 'id-ID' },
    });
    expect(models.statusCode).toBe(403);
    expect(models.json()).toEqual({ status: 'error', code: 'forbidden', message: 'Tidak ada izin' });
    const admin = await t.adminToken();
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/upscale-api/models',
          headers: { authorization: `Bearer ${admin}` },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('answers unknown paths of the group in its own shape', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/upscale-api/nothing-here',
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ status: 'error', code: 'not_found', message: '请求的资源不存在' });
    const missing = await t.app.inject({
      method: 'GET',
      url: `/upscale-api/results/${'a'.repeat(22)}/x.png`,
    });
    expect(missing.statusCode).toBe(403);
  });
});
