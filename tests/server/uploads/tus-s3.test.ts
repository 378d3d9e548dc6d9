// Resumable uploads in the STORAGE_URL bucket (@tus/s3-store: an S3 multipart upload per upload,
// its bytes short of a part kept as an incomplete part object), on the local S3 server: an append
// cut part-way is resumed, the finished object is the file, an image read back short at its end is
// kept and finished when a call names it, a refused image and a terminated
// upload leave nothing, and the sweep removes a lapsed one, finished or not, and a multipart upload
// no row names under its prefix (never another deployment's in the same bucket). The database plays no
// part here: SQLite only.
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startS3Server, type S3TestServer } from '../storage/s3-server.js';
import { makeImage } from '../upscale-service/upscale-helpers.js';
import { TusWire, sha256 } from './tus-wire.js';

describe('resumable uploads in an S3 bucket', () => {
  let s3: S3TestServer;
  let t: TestApp;
  let wire: TusWire;
  let token: string;
  let userId: number;
  const png = { filename: 'bolt.png', filetype: 'image/png', purpose: 'upscale' };

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp('sqlite', s3.env('team'));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    wire = new TusWire(
      `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      '/api/uploads/',
    );
    ({ token, id: userId } = await t.createUser('DESIGNER'));
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('resumes a cut append in the bucket and keeps the file whole under the prefix', async () => {
    const image = await makeImage('png', 96, 64);
    const url = await wire.begin(token, { length: image.length, ...png });
    const id = url.split('/').pop()!;
    await wire.cutPatch(url, token, 0, image, Math.floor(image.length / 2));
    const offset = await wire.offset(url, token);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(Math.floor(image.length / 2));
    const rest = await wire.patch(url, token, offset, image.subarray(offset));
    expect(rest.status).toBe(204);
    expect(sha256(await t.app.uploadReferences!.read(id))).toBe(sha256(image));
    expect(await s3.keys(`team/uploads/${id}`)).toEqual([`team/uploads/${id}`, `team/uploads/${id}.info`]);
  });

  it('keeps an image the bucket reads back short at its end, and finishes it when a call names it', async () => {
    const image = await makeImage('png', 96, 64);
    const url = await wire.begin(token, { length: image.length, ...png });
    const id = url.split('/').pop()!;
    s3.lagNextRead(`team/uploads/${id}`, Math.floor(image.length / 2));
    const last = await wire.patch(url, token, 0, image);
    expect(last.status).toBe(503);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    // The client's next HEAD reads every byte in, so tus-js-client counts the upload done…
    expect(await wire.offset(url, token)).toBe(image.length);
    // …and the call that names it finishes it, from the bucket that now reads whole.
    await expect(t.app.uploadReferences!.find(id, userId)).resolves.toMatchObject({ length: image.length });
    expect(sha256(await t.app.uploadReferences!.read(id))).toBe(sha256(image));
  });

  it('leaves nothing of a refused image or a terminated upload, and sweeps the lapsed ones', async () => {
    const text = Buffer.from('plain words, not an image');
    const refusedUrl = await wire.begin(token, { length: text.length, ...png });
    expect((await wire.patch(refusedUrl, token, 0, text)).status).toBe(422);
    const refusedId = refusedUrl.split('/').pop()!;
    expect(await s3.keys(`team/uploads/${refusedId}`)).toEqual([]);

    const image = await makeImage('png', 64, 64);
    const endedUrl = await wire.begin(token, { length: image.length, ...png });
    expect((await wire.patch(endedUrl, token, 0, image.subarray(0, 200))).status).toBe(204);
    expect((await wire.terminate(endedUrl, token)).status).toBe(204);
    expect(await s3.keys(`team/uploads/${endedUrl.split('/').pop()!}`)).toEqual([]);

    const pendingUrl = await wire.begin(token, { length: image.length, ...png });
    expect((await wire.patch(pendingUrl, token, 0, image.subarray(0, 300))).status).toBe(204);
    expect((await s3.keys('team/uploads/')).length).toBeGreaterThan(0);
    // A multipart upload no row names (its replica died between the two), and another deployment's.
    const { client, bucket } = s3.bucket('');
    for (const key of ['team/uploads/' + 'e'.repeat(32), 'elsewhere/uploads/' + 'e'.repeat(32)]) {
      await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    }
    t.advance(25 * 3600);
    const swept = await t.app.uploads!.sweep.run();
    expect(swept.expired).toBeGreaterThanOrEqual(2);
    expect(await s3.keys('team/uploads/')).toEqual([]);
    const left = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    expect((left.Uploads ?? []).map((u) => u.Key)).toEqual(['elsewhere/uploads/' + 'e'.repeat(32)]);
    client.destroy();
  });
});
