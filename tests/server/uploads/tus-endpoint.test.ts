// Resumable uploads end to end on a listening server, SQLite and PostgreSQL: /config.json names the
// endpoint, a creation is refused before its first byte for a bad token, a length over the limit, a
// type or purpose not taken, missing metadata or the owner's bounds; an append cut off part-way is
// resumed from the offset the server reports and the stored bytes are the file's; a sliver of an
// image is refused as soon as its header is in; a finished upload stands for the file in the
// upscale calls (single and batch), the analysis form and the workshop's items; lapsed uploads are swept.
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { makeImage } from '../upscale-service/upscale-helpers.js';
import { TusWire, sha256 } from './tus-wire.js';

/** A multipart body of text fields and files, in the order given (a field may repeat). */
function form(parts: Array<[string, string] | { field: string; filename: string; data: Buffer }>) {
  const boundary = `----loom${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (Array.isArray(part)) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${part[0]}"\r\n\r\n${part[1]}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

describe.each(databaseKinds)('resumable uploads on $kind', ({ kind, skip }) => {
  let t: TestApp;
  let wire: TusWire;
  let designer: { id: number; token: string };
  let other: { token: string };

  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(kind, {
      UPLOAD_LIMIT_BYTES: String(2 * 1024 * 1024),
      UPLOAD_MAX_PENDING_PER_USER: '3',
      CORS_ORIGINS: 'https://pwa.example',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const config = (await (await fetch(`http://127.0.0.1:${port}/config.json`)).json()) as {
      uploads?: { tus: string };
    };
    wire = new TusWire(`http://127.0.0.1:${port}`, config.uploads!.tus);
    designer = await t.createUser('DESIGNER');
    other = await t.createUser('DESIGNER');
  });
  afterAll(() => t?.close());

  const png = { filename: 'swatch.png', filetype: 'image/png', purpose: 'upscale' };

  /** The single upscale call naming an upload instead of carrying the file. */
  const upscaleNaming = (token: string, uploadId: string) => {
    const body = form([
      ['model_name', 'up2x-conservative'],
      ['image_upload_id', uploadId],
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/upscale-api/upscale/single',
      headers: { authorization: `Bearer ${token}`, 'content-type': body.type, 'accept-language': 'en-US' },
      payload: body.body,
    });
  };

  it.skipIf(skip)('names the endpoint in /config.json beside the API groups', () => {
    expect(wire.endpoint).toBe('/api/uploads/');
  });

  it.skipIf(skip || kind !== 'sqlite')(
    'lets a PWA on another origin speak tus and read its headers',
    async () => {
      const origin = 'https://pwa.example';
      const preflight = await fetch(`${wire.base}${wire.endpoint}${'a'.repeat(32)}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': 'authorization,tus-resumable,upload-offset,content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
      const created = await wire.create(designer.token, { length: 1000, ...png }, { origin });
      expect(created.status).toBe(201);
      expect(created.headers.get('access-control-allow-origin')).toBe(origin);
      const exposed = created.headers.get('access-control-expose-headers') ?? '';
      for (const header of ['Location', 'Upload-Offset', 'Upload-Length', 'Tus-Resumable', 'Upload-Expires'])
        expect(exposed).toContain(header);
      expect(created.headers.get('upload-expires')).toBeTruthy();
      expect(
        (await wire.terminate(new URL(created.headers.get('location')!, wire.base).href, designer.token))
          .status,
      ).toBe(204);
    },
  );

  it.skipIf(skip)(
    'refuses a creation before its first byte: token, length, type, purpose, metadata',
    async () => {
      const noToken = await wire.create(null, { length: 100, ...png });
      expect(noToken.status).toBe(401);
      const badToken = await wire.create('not-a-token', { length: 100, ...png });
      expect(badToken.status).toBe(401);

      const tooLong = await wire.create(designer.token, { length: 2 * 1024 * 1024 + 1, ...png });
      expect(tooLong.status).toBe(413);
      expect(await tooLong.json()).toMatchObject({
        success: false,
        code: 413,
        message: 'The file is larger than 2 MB',
      });

      const pdf = await wire.create(designer.token, { length: 100, ...png, filetype: 'application/pdf' });
      expect(pdf.status).toBe(415);
      expect((await pdf.json()) as object).toMatchObject({ code: 415 });

      const noPurpose = await wire.create(designer.token, {
        length: 100,
        filename: 'a.png',
        filetype: 'image/png',
      });
      expect(noPurpose.status).toBe(400);
      expect(((await noPurpose.json()) as { message: string }).message).toBe('The upload needs its purpose');
      const badPurpose = await wire.create(designer.token, { length: 100, ...png, purpose: 'mood-board' });
      expect(badPurpose.status).toBe(400);
      const noName = await wire.create(designer.token, {
        length: 100,
        filetype: 'image/png',
        purpose: 'upscale',
      });
      expect(noName.status).toBe(400);
      const deferred = await fetch(wire.base + wire.endpoint, {
        method: 'POST',
        headers: {
          'tus-resumable': '1.0.0',
          authorization: `Bearer ${designer.token}`,
          'upload-defer-length': '1',
          'upload-metadata': '',
        },
      });
      expect(deferred.status).toBe(400);
    },
  );

  it.skipIf(skip)(
    'resumes an append cut part-way from the offset the server has; the stored bytes are the file',
    async () => {
      const image = await makeImage('png', 48, 32);
      const url = await wire.begin(designer.token, { length: image.length, ...png });
      const id = url.split('/').pop()!;
      expect(id).toMatch(/^[0-9a-f]{32}$/);

      await wire.cutPatch(url, designer.token, 0, image, Math.floor(image.length * 0.6));
      const offset = await wire.offset(url, designer.token);
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThanOrEqual(Math.floor(image.length * 0.6));

      // Another user's upload is no upload at all.
      expect((await wire.head(url, other.token)).status).toBe(404);
      expect((await wire.patch(url, other.token, offset, image.subarray(offset))).status).toBe(404);

      const rest = await wire.patch(url, designer.token, offset, image.subarray(offset));
      expect(rest.status).toBe(204);
      expect(Number(rest.headers.get('upload-offset'))).toBe(image.length);
      const stored = await t.app.uploadReferences!.read(id);
      expect(sha256(stored)).toBe(sha256(image));

      // The upscale call takes it by id, and again (a resend of the same call). The engine's part is
      // the database's no more on one than on the other: it runs on SQLite only (its model loads in seconds).
      for (let i = 0; i < (kind === 'sqlite' ? 2 : 0); i += 1) {
        const r = await upscaleNaming(designer.token, id);
        expect(r.statusCode, r.body).toBe(200);
        expect(r.json()).toMatchObject({
          status: 'success',
          filename: expect.stringMatching(/^swatch/),
          width: 96,
          height: 64,
        });
      }
    },
  );

  it.skipIf(skip || kind !== 'sqlite')(
    'takes an upload from tus-js-client, the client the PWA uses, in chunks',
    async () => {
      const image = await makeImage('png', 120, 90);
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new Upload(image, {
          endpoint: wire.base + wire.endpoint,
          headers: { authorization: `Bearer ${designer.token}` },
          metadata: { filename: 'client.png', filetype: 'image/png', purpose: 'upscale' },
          chunkSize: Math.ceil(image.length / 3),
          retryDelays: [],
          onError: reject,
          onSuccess: () => resolve(upload.url!),
        });
        upload.start();
      });
      const id = url.split('/').pop()!;
      expect(sha256(await t.app.uploadReferences!.read(id))).toBe(sha256(image));
      expect(await t.app.uploadReferences!.find(id, designer.id)).toEqual({
        name: 'client.png',
        length: image.length,
        purpose: 'upscale',
      });
    },
  );

  it.skipIf(skip)(
    "answers a reference to an unfinished, unknown or other user's upload with 409 and 404",
    async () => {
      const image = await makeImage('png', 64, 64);
      const url = await wire.begin(designer.token, { length: image.length, ...png });
      const id = url.split('/').pop()!;
      expect((await wire.patch(url, designer.token, 0, image.subarray(0, 100))).status).toBe(204);
      const incomplete = await upscaleNaming(designer.token, id);
      expect(incomplete.statusCode).toBe(409);
      expect(incomplete.json()).toMatchObject({ status: 'error', code: 'upload_incomplete' });
      expect((await upscaleNaming(other.token, id)).json()).toMatchObject({ code: 'upload_not_found' });
      expect((await upscaleNaming(designer.token, 'f'.repeat(32))).statusCode).toBe(404);
      // Ended by its owner: gone from the store and the table.
      expect((await wire.terminate(url, designer.token)).status).toBe(204);
      expect((await wire.head(url, designer.token)).status).toBe(404);
    },
  );

  // The process dies (or the database is away) after the store wrote the last byte and before the
  // finish was recorded: the last byte is written straight into the store's file, as the store had
  // written it, and the finish hook never runs. The client's HEAD then reads the whole length.
  const crashBeforeFinish = async (data: Buffer) => {
    const url = await wire.begin(designer.token, { length: data.length, ...png });
    const id = url.split('/').pop()!;
    expect((await wire.patch(url, designer.token, 0, data.subarray(0, -1))).status).toBe(204);
    appendFileSync(path.join(t.dataDir, 'uploads', id), data.subarray(-1));
    expect(await wire.offset(url, designer.token)).toBe(data.length);
    return { url, id };
  };

  it.skipIf(skip)(
    'finishes an upload whose every byte is in but whose finish was never recorded, when a call names it',
    async () => {
      const image = await makeImage('png', 48, 40);
      const { id } = await crashBeforeFinish(image);
      expect(await t.app.uploadReferences!.find(id, designer.id)).toEqual({
        name: 'swatch.png',
        length: image.length,
        purpose: 'upscale',
      });
      expect(sha256(await t.app.uploadReferences!.read(id))).toBe(sha256(image));
      if (kind !== 'sqlite') return; // the engine's part is the database's no more on one than the other
      const r = await upscaleNaming(designer.token, id);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ status: 'success', width: 96, height: 80 });
    },
  );

  it.skipIf(skip)(
    'checks such an upload as a whole when a call names it: a broken image is refused and forgotten',
    async () => {
      const image = await makeImage('png', 48, 40);
      // The header reads as an image; the rest is noise no decoder takes.
      const broken = Buffer.concat([image.subarray(0, 64), Buffer.alloc(image.length - 64, 7)]);
      const { url, id } = await crashBeforeFinish(broken);
      await expect(t.app.uploadReferences!.find(id, designer.id)).rejects.toMatchObject({ status: 422 });
      expect((await wire.head(url, designer.token)).status).toBe(404);
      await expect(t.app.uploadReferences!.find(id, designer.id)).rejects.toMatchObject({
        status: 404,
        key: 'upload_not_found',
      });
    },
  );

  it.skipIf(skip)('counts uploads named in the analysis form as its images', async () => {
    const video = await t.createUser('GENERAL');
    const image = await makeImage('jpeg', 64, 48);
    const url = await wire.begin(video.token, {
      length: image.length,
      filename: 'model.jpg',
      filetype: 'image/jpeg',
      purpose: 'analysis',
    });
    expect((await wire.patch(url, video.token, 0, image)).status).toBe(204);
    const id = url.split('/').pop()!;
    const analyse = (parts: Array<[string, string]>, token = video.token) => {
      const body = form([['prompt', 'a linen dress'], ...parts]);
      return t.app.inject({
        method: 'POST',
        url: '/image-api/analyze-images-json-stream',
        headers: { authorization: `Bearer ${token}`, 'content-type': body.type, 'accept-language': 'en-US' },
        payload: body.body,
      });
    };
    // Seven references to one upload are seven model images: one more than the form takes.
    const seven = await analyse(
      Array.from({ length: 7 }, () => ['model_images_upload_id', id] as [string, string]),
    );
    expect(seven.statusCode).toBe(400);
    expect(seven.json()).toMatchObject({ success: false, message: expect.stringMatching(/6/) });
    const foreign = await analyse([['model_images_upload_id', id]], other.token);
    expect(foreign.statusCode).toBe(403);
    const otherUser = await t.createUser('GENERAL');
    const notTheirs = await analyse([['model_images_upload_id', id]], otherUser.token);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json()).toMatchObject({
      success: false,
      code: 404,
      message: 'The upload was not found, or it has expired',
    });
  });

  it.skipIf(skip)('counts uploads named in a workshop item as its images', async () => {
    const admin = await t.adminToken();
    const image = await makeImage('png', 64, 48);
    const url = await wire.begin(admin, {
      length: image.length,
      filename: 'item.png',
      filetype: 'image/png',
      purpose: 'workshop',
    });
    expect((await wire.patch(url, admin, 0, image)).status).toBe(204);
    const id = url.split('/').pop()!;
    const item = (parts: Array<[string, string]>) => {
      const body = form([['type', 'image'], ...parts]);
      return t.app.inject({
        method: 'POST',
        url: '/third-api/workshop/items',
        headers: { authorization: `Bearer ${admin}`, 'content-type': body.type, 'accept-language': 'en-US' },
        payload: body.body,
      });
    };
    const seven = await item(Array.from({ length: 7 }, () => ['images[]_upload_id', id] as [string, string]));
    expect(seven.statusCode).toBe(400);
    const unknown = await item([['images_upload_id', 'e'.repeat(32)]]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      success: false,
      message: 'The upload was not found, or it has expired',
    });
  });

  it.skipIf(skip)('refuses a sliver of an image as soon as its header is in, and forgets it', async () => {
    const sliver = await makeImage('png', 400, 4);
    const url = await wire.begin(designer.token, { length: sliver.length + 5000, ...png });
    const r = await wire.patch(url, designer.token, 0, sliver);
    expect(r.status).toBe(422);
    expect(((await r.json()) as { message: string }).message).toMatch(/too narrow/);
    expect((await wire.head(url, designer.token)).status).toBe(404);

    const text = Buffer.from('this is not an image at all, only words');
    const url2 = await wire.begin(designer.token, { length: text.length, ...png });
    const r2 = await wire.patch(url2, designer.token, 0, text);
    expect(r2.status).toBe(422);
    expect((await wire.head(url2, designer.token)).status).toBe(404);
  });

  it.skipIf(skip || kind !== 'sqlite')('takes several uploads in a batch, in the order sent', async () => {
    const ids: string[] = [];
    for (const [w, h] of [
      [40, 24],
      [24, 40],
    ]) {
      const image = await makeImage('png', w, h);
      const url = await wire.begin(designer.token, {
        length: image.length,
        ...png,
        filename: `${w}x${h}.png`,
      });
      expect((await wire.patch(url, designer.token, 0, image)).status).toBe(204);
      ids.push(url.split('/').pop()!);
    }
    const body = form([
      ['model_name', 'up2x-conservative'],
      ['images_upload_id', ids[0]!],
      ['images_upload_id', ids[1]!],
    ]);
    const r = await t.app.inject({
      method: 'POST',
      url: '/upscale-api/upscale/batch',
      headers: { authorization: `Bearer ${designer.token}`, 'content-type': body.type },
      payload: body.body,
    });
    expect(r.statusCode).toBe(200);
    const done = r.body
      .split('\n\n')
      .map((block) => block.replace(/^data: /, ''))
      .filter(
        (line) => line.includes('"complete"') || line.includes('"item_done"') || line.includes('"done"'),
      );
    expect(done.length).toBeGreaterThan(0);
    expect(r.body).toContain('40x24');
    expect(r.body.indexOf('40x24')).toBeLessThan(r.body.indexOf('24x40'));
  });

  it.skipIf(skip)(
    "bounds one user's unfinished uploads and sweeps the lapsed ones from store and table",
    async () => {
      const user = await t.createUser('DESIGNER');
      const urls: string[] = [];
      for (let i = 0; i < 3; i += 1) urls.push(await wire.begin(user.token, { length: 1000, ...png }));
      const refused = await wire.create(user.token, { length: 1000, ...png });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { message: string }).message).toMatch(/unfinished uploads/);

      const id = urls[0]!.split('/').pop()!;
      const file = path.join(t.dataDir, 'uploads', id);
      if (t.config.storage.kind === 'disk') expect(existsSync(file)).toBe(true);
      t.advance(25 * 3600);
      const swept = await t.app.uploads!.sweep.run();
      expect(swept.expired).toBeGreaterThanOrEqual(3);
      expect(existsSync(file)).toBe(false);
      expect((await wire.head(urls[0]!, (await t.login(user.account, user.password)).token)).status).toBe(
        404,
      );
      // The bounds count only what has not lapsed.
      expect(
        (await wire.create((await t.login(user.account, user.password)).token, { length: 1000, ...png }))
          .status,
      ).toBe(201);
    },
  );
});

describe('UPLOADS_TUS=off', () => {
  it('leaves the endpoint out of /config.json and out of the server', async () => {
    const t = await createTestApp('sqlite', { UPLOADS_TUS: 'off' });
    try {
      const config = await t.app.inject({ method: 'GET', url: '/config.json' });
      expect(config.json()).not.toHaveProperty('uploads');
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/uploads/',
        headers: { 'tus-resumable': '1.0.0' },
      });
      expect(r.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
