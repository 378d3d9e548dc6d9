// `node --import tsx scripts/bench-generation/upload-storm.ts`: the upload storm of issue 22 against
// a real companion server in its own process (free loopback port, fresh data folder, built-in
// engine): a GENERAL user sends 8 analyses at once, each with 12 files of 9.5 MB (6 model, 6
// pattern). Prints the server's RSS before, its peak during the storm (VmHWM, reset just before
// it) and after, and the answers' status codes. Asserts nothing; exits by itself.
// STORM_REQUESTS, STORM_FILES and STORM_FILE_MB change the storm; GENERATION_MAX_INFLIGHT_BYTES
// and UPLOAD_LIMIT_BYTES are passed on to the server.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startLoopbackCompanion } from '../../tests/support/processes.js';

const REQUESTS = Number(process.env.STORM_REQUESTS ?? 8);
const FILES = Number(process.env.STORM_FILES ?? 12);
const FILE_BYTES = Math.round(Number(process.env.STORM_FILE_MB ?? 9.5) * 1_000_000);
const ADMIN = { account: 'storm-admin', password: 'storm-admin-pass' };

/** A /proc/<pid>/status line in MB. */
function procMb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${key}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

async function call<T>(url: string, body: unknown, token?: string): Promise<{ status: number; data: T }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  return { status: res.status, data: json.data };
}

/** One analysis form: a prompt and FILES padded PNGs, half model images, half pattern images. */
async function stormForm(): Promise<{ payload: Buffer; contentType: string }> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#8e44ad' } }).png().toBuffer();
  const image = Buffer.concat([png, Buffer.alloc(FILE_BYTES - png.length)]);
  const boundary = '----loom-upload-storm';
  const chunks: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nA summer dress\r\n`),
  ];
  for (let i = 0; i < FILES; i++) {
    const field = i < FILES / 2 ? 'model_images' : 'pattern_images';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="f${i}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      image,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends one form; resolves with the status (0: the connection failed) and Retry-After. */
function send(port: number, token: string, form: { payload: Buffer; contentType: string }) {
  return new Promise<{ status: number; retryAfter?: string; ms: number }>((resolve) => {
    const started = performance.now();
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/image-api/analyze-images-json-stream',
      method: 'POST',
      headers: {
        'content-type': form.contentType,
        'content-length': form.payload.length,
        authorization: `Bearer ${token}`,
        'accept-language': 'en-US',
      },
    });
    let done = false;
    const finish = (status: number, retryAfter?: string) => {
      if (done) return;
      done = true;
      resolve({ status, retryAfter, ms: performance.now() - started });
    };
    req.on('response', (res) => {
      const retryAfter = res.headers['retry-after'];
      finish(res.statusCode ?? 0, typeof retryAfter === 'string' ? retryAfter : undefined);
      // A started stream (200) would run an analysis: hang up once its status is known.
      if (res.statusCode === 200) req.destroy();
      else res.resume();
    });
    req.on('error', () => finish(0));
    req.end(form.payload);
  });
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-storm-'));
const passOn = Object.fromEntries(
  ['GENERATION_MAX_INFLIGHT_BYTES', 'UPLOAD_LIMIT_BYTES'].filter((k) => process.env[k]).map((k) => [k, process.env[k]!]),
);
const server = await startLoopbackCompanion({
  // No provider keys: the built-in engine serves, as on a fresh laptop.
  inheritEnv: false,
  env: {
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-pwa'),
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'error',
    ...passOn,
  },
}).catch((error: unknown) => {
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});
const { port } = server;

try {
  const base = server.url;
  const admin = await call<{ token: string }>(`${base}/api/auth/login-password`, ADMIN);
  const general = { account: 'storm-designer', password: 'storm-pass-123' };
  const created = await call(`${base}/api/users/`, { ...general, user_level: 'GENERAL' }, admin.data.token);
  if (created.status !== 201) throw new Error(`could not create the designer: ${created.status}`);
  const { data } = await call<{ token: string }>(`${base}/api/auth/login-password`, general);

  const form = await stormForm();
  const pid = server.child.pid!;
  await new Promise((r) => setTimeout(r, 1000));
  const before = procMb(pid, 'VmRSS');
  // Peak RSS from here on: writing 5 to clear_refs resets VmHWM to the current RSS.
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  let sampled = before;
  const sampler = setInterval(() => (sampled = Math.max(sampled, procMb(pid, 'VmRSS'))), 20);

  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: REQUESTS }, () => send(port, data.token, form)));
  const stormMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 500));
  clearInterval(sampler);
  const peak = procMb(pid, 'VmHWM');
  const after = procMb(pid, 'VmRSS');

  const codes = new Map<string, number>();
  for (const a of answers) {
    const key = a.retryAfter ? `${a.status} (Retry-After ${a.retryAfter})` : String(a.status);
    codes.set(key, (codes.get(key) ?? 0) + 1);
  }
  console.log(
    `upload storm: ${REQUESTS} analyses at once, each ${FILES} files of ${(FILE_BYTES / 1e6).toFixed(1)} MB ` +
      `(${(form.payload.length / 1e6).toFixed(1)} MB a body), POST /image-api/analyze-images-json-stream`,
  );
  console.log(
    `server RSS: before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (VmHWM; highest sampled ${sampled.toFixed(0)} MB), ` +
      `after ${after.toFixed(0)} MB; peak rise ${(peak - before).toFixed(0)} MB`,
  );
  console.log(`answers in ${(stormMs / 1000).toFixed(1)} s: ${[...codes].map(([k, n]) => `${n} × ${k}`).join(', ')}`);
  console.log(`answer times (ms): ${answers.map((a) => a.ms.toFixed(0)).join(', ')}`);
} finally {
  await server.stop(20_000);
  rmSync(dataDir, { recursive: true, force: true });
}
