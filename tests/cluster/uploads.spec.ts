// A resumable upload in team mode on real parts: two ROLE=api replicas behind nginx, one ROLE=worker,
// the suite's own PostgreSQL and the local S3 server. An upload begun through nginx is taken by
// one replica; that replica is killed with kill -9; the offset is asked and the rest sent through
// nginx, which now reaches the other replica; the object in the bucket is the file, byte for byte,
// and the upscale call names the upload instead of sending the file. Timings and the bytes sent per
// byte stored are printed.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signInApi } from '../e2e/offline-helpers.js';
import { REPO_ROOT } from '../support/processes.js';
import { clusterProblem, startCluster, startS3, type Cluster, type Companion, type S3Server } from './index.js';

const modelsReady = existsSync(path.join(REPO_ROOT, '.cache', 'models', 'models-se'));
const problem =
  clusterProblem() ?? (modelsReady ? null : 'no Real-CUGAN models under .cache/models (npm run models:fetch)');
if (problem) console.log(`cluster upload suite skipped: ${problem}`);

test.describe.configure({ mode: 'serial' });
// .ci/run installs nginx and PostgreSQL's server binaries: a missing one is a broken setup.
test.beforeAll(() => {
  if (problem !== null) throw new Error(`the cluster suite cannot run here: ${problem}`);
});

let s3: S3Server;
let cluster: Cluster;
let worker: Companion;
const timings: Record<string, number> = {};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const started = Date.now();
  s3 = await startS3();
  cluster = await startCluster({
    replicas: 2,
    env: {
      TEAM_MODE: 'true',
      ROLE: 'api',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      STORAGE_URL: `s3://${s3.bucket}/team`,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
  });
  worker = await cluster.addCompanion({
    name: 'worker',
    readyPath: null,
    env: { ROLE: 'worker', UPSCALE_THREADS: '1', UPSCALE_CONCURRENCY: '1', LOG_LEVEL: 'info' },
  });
  await expect
    .poll(
      () => {
        if (!worker.running()) throw new Error(`worker exited:\n${worker.log().slice(-2000)}`);
        return /worker is running/i.test(worker.log());
      },
      { timeout: 90_000, intervals: [100] },
    )
    .toBe(true);
  timings.startMs = Date.now() - started;
});

test.afterAll(async () => {
  await cluster?.teardown();
  await s3?.stop();
  console.log(`cluster upload timings: ${JSON.stringify(timings)}`);
});

/** A photo-like PNG of noise: it does not compress, so its parts are real bytes on the wire. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const portOf = (upstream: string) => upstream.split(', ').at(-1)?.split(':').at(-1);

test('an upload begun at a replica that is then killed is finished through nginx at the other', async () => {
  const { token } = await signInApi(cluster.url, cluster.admin.account, cluster.admin.password);
  const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
  const image = await noisePng(192, 144);
  let sent = 0;

  const created = await fetch(`${cluster.url}/api/uploads/`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(image.length),
      'upload-metadata': ['filename fabric.png', 'filetype image/png', 'purpose upscale']
        .map((pair) => pair.split(' '))
        .map(([k, v]) => `${k} ${Buffer.from(v!).toString('base64')}`)
        .join(','),
    },
  });
  expect(created.status).toBe(201);
  const url = new URL(created.headers.get('location')!, `${cluster.url}/api/uploads/`).href;
  const id = url.split('/').pop()!;

  const patch = (offset: number, data: Buffer) => {
    sent += data.length;
    return fetch(url, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(data),
    });
  };
  const first = Math.floor(image.length * 0.4);
  expect((await patch(0, image.subarray(0, first))).status).toBe(204);
  const took = cluster.lb.accessLog().findLast((e) => e.method === 'PATCH' && e.path.endsWith(id));
  const [a, b] = cluster.replicas() as [Companion, Companion];
  const holder = portOf(took!.upstream) === String(a.port) ? a : b;
  const other = holder === a ? b : a;

  let t = Date.now();
  await holder.kill('SIGKILL');
  timings.killMs = Date.now() - t;

  t = Date.now();
  const head = await fetch(url, { method: 'HEAD', headers: tus });
  expect(head.status).toBe(200);
  const offset = Number(head.headers.get('upload-offset'));
  expect(offset).toBe(first);
  const rest = await patch(offset, image.subarray(offset));
  expect(rest.status).toBe(204);
  timings.resumeAfterKillMs = Date.now() - t;
  // nginx writes a request's line once its answer is out: the last two may come a moment later.
  const ofUpload = () => cluster.lb.accessLog().filter((e) => e.path.endsWith(id) && (e.method === 'HEAD' || e.method === 'PATCH'));
  await expect.poll(() => ofUpload().length).toBe(3);
  for (const e of ofUpload().slice(1)) expect(portOf(e.upstream)).toBe(String(other.port));

  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `team/uploads/${id}` }));
  const stored = Buffer.from(await object.Body!.transformToByteArray());
  client.destroy();
  expect(sha256(stored)).toBe(sha256(image));
  console.log(`bytes sent per byte stored: ${(sent / stored.length).toFixed(3)} (${sent} / ${stored.length})`);

  // The upscale call names the upload; the worker upscales the stored bytes.
  t = Date.now();
  const boundary = `----loom${Date.now().toString(16)}`;
  const form =
    `--${boundary}\r\ncontent-disposition: form-data; name="model_name"\r\n\r\nup2x-conservative\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="image_upload_id"\r\n\r\n${id}\r\n--${boundary}--\r\n`;
  const upscaled = await fetch(`${cluster.url}/upscale-api/upscale/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: form,
  });
  const answer = (await upscaled.json()) as { status: string; width: number; height: number };
  expect(upscaled.status, JSON.stringify(answer)).toBe(200);
  expect(answer).toMatchObject({ status: 'success', width: 384, height: 288 });
  timings.upscaleByIdMs = Date.now() - t;
});
