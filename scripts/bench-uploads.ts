// `npm run bench:uploads`: a batch of large images sent through the fault-making proxy (one shared
// paced link, every upload on the wire cut every 1 s, 2 s and 5 s), resumable (tus, the product's
// client in src/lib/upload against the companion server's endpoint) against today's whole-file
// resend (one multipart POST per attempt, sent again from its first byte after a cut). Both keep
// the product's window of three uploads and its one retry policy (src/lib/retry): backoff, the
// time budget; a tus attempt that moved the server's offset on restarts the streak, as the upscale
// queue does. Prints, per case, the bytes sent, the wall time, the files through within the
// limit, and the bytes sent per byte stored. Asserts nothing.
//
// The whole-file case measures the transport only: its POSTs go to a sink behind the same proxy
// that reads the body and checks its length and checksum, so no upscale runs on 2 cores.
//
//   npm run bench:uploads              30 × 8 MB, 10 minutes per case at most
//   npm run bench:uploads -- --quick   6 × 2 MB, 90 s per case at most
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { planRetry, type RetryStreak } from '../src/lib/retry/retry-policy.js';
import { runTusAttempt } from '../src/lib/upload/tus-upload.js';
import { startFaultProxy, type FaultProxy } from '../tests/e2e/fault-proxy.js';
import { startLoopbackCompanion } from '../tests/support/processes.js';
import { storedUpload } from '../tests/support/stored-uploads.js';

const quick = process.argv.includes('--quick');
const FILES = Number(process.env.BENCH_FILES ?? (quick ? 6 : 30));
const FILE_BYTES = Number(process.env.BENCH_FILE_MB ?? (quick ? 2 : 8)) * 1024 * 1024;
/** The booth's link, shared by every upload. */
const LINK_BYTES_PER_S = Number(process.env.BENCH_LINK_MBPS ?? (quick ? 2 : 8)) * 1024 * 1024;
const LIMIT_MS = Number(process.env.BENCH_LIMIT_S ?? (quick ? 90 : 600)) * 1000;
const CUT_PERIODS_S = (process.env.BENCH_CUTS ?? '1,2,5').split(',').map(Number);
const MODES = (process.env.BENCH_MODES ?? 'tus,multipart').split(',') as Case['mode'][];
const WINDOW = 3;
const ADMIN = { account: 'bench-admin', password: 'bench-password' };

interface Source {
  name: string;
  bytes: Buffer;
  sha256: string;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Noise PNGs (incompressible, so a byte on the wire is a byte of the file), each its own. */
async function makeSources(): Promise<Source[]> {
  const side = Math.floor(Math.sqrt(FILE_BYTES / 3));
  const out: Source[] = [];
  for (let i = 0; i < FILES; i++) {
    const bytes = await sharp({
      create: { width: side, height: side, channels: 3, background: { r: i, g: 128, b: 200 }, noise: { type: 'gaussian', mean: 128, sigma: 80 } },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    out.push({ name: `scan-${String(i).padStart(2, '0')}.png`, bytes, sha256: sha256(bytes) });
  }
  return out;
}

/** Today's multipart upload as the transport sees it: reads the whole body, checks it, answers. */
async function startSink(expected: Map<string, string>): Promise<{ port: number; stored: Set<string>; close(): Promise<void> }> {
  const stored = new Set<string>();
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const name = String(req.headers['x-file-name'] ?? '');
      const body = Buffer.concat(parts);
      // The file is the multipart body's one part: find it by the checksum of its bytes.
      const want = expected.get(name);
      const ok = want !== undefined && containsFile(body, want);
      if (ok) stored.add(name);
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    stored,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let sourcesBySum = new Map<string, Buffer>();
function containsFile(body: Buffer, sum: string): boolean {
  const file = sourcesBySum.get(sum);
  if (!file) return false;
  const at = body.indexOf(file.subarray(0, 64));
  return at >= 0 && sha256(body.subarray(at, at + file.length)) === sum;
}

type Attempt = { ok: true } | { ok: false; advanced: boolean; retryAfterMs?: number; final?: string };

interface Case {
  mode: 'tus' | 'multipart';
  cutEveryS: number;
  through: number;
  failed: number;
  bytesSent: number;
  bytesStored: number;
  wallS: number;
  checksumMismatches: number;
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const body = (await res.json()) as { data?: { token?: string } };
  if (!body.data?.token) throw new Error(`sign-in answered ${res.status}`);
  return body.data.token;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((r) => {
    const t = setTimeout(r, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
  });

async function runCase(
  mode: Case['mode'],
  cutEveryS: number,
  sources: Source[],
  proxy: FaultProxy,
  target: { port: number; tusPath: string; dataDir: string },
  sinkPort: number,
): Promise<Case> {
  proxy.retarget(mode === 'tus' ? target.port : sinkPort);
  const token = mode === 'tus' ? await signIn(proxy.url) : '';
  const before = { ...proxy.counts };
  proxy.cutUploadsEvery(cutEveryS * 1000);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), LIMIT_MS);
  const started = Date.now();
  const result: Case = { mode, cutEveryS, through: 0, failed: 0, bytesSent: 0, bytesStored: 0, wallS: 0, checksumMismatches: 0 };
  const uploadUrls = new Map<string, string>();
  const ids = new Map<string, string>();

  const attempt = async (source: Source): Promise<Attempt> => {
    if (mode === 'tus') {
      const before = uploadOffsets.get(source.name) ?? 0;
      const outcome = await runTusAttempt({
        endpoint: `${proxy.url}${target.tusPath}`,
        uploadUrl: uploadUrls.get(source.name),
        file: source.bytes,
        size: source.bytes.length,
        fileName: source.name,
        fileType: 'image/png',
        purpose: 'upscale',
        token: () => token,
        signal: deadline.signal,
        onUrl: (url) => uploadUrls.set(source.name, url),
        onAccepted: (bytes) => uploadOffsets.set(source.name, bytes),
      });
      if (outcome.kind === 'done') {
        ids.set(source.name, outcome.id);
        return { ok: true };
      }
      const advanced = (uploadOffsets.get(source.name) ?? 0) > before;
      if (outcome.kind === 'http-error' && outcome.status >= 400 && outcome.status < 500 && outcome.status !== 429 && outcome.status !== 409 && outcome.status !== 423)
        return { ok: false, advanced, final: `${outcome.status} ${outcome.code}` };
      return { ok: false, advanced, retryAfterMs: outcome.kind === 'http-error' ? outcome.retryAfterMs : undefined };
    }
    const form = new FormData();
    form.append('image', new Blob([source.bytes], { type: 'image/png' }), source.name);
    form.append('model_name', 'up2x-conservative');
    try {
      const res = await fetch(`${proxy.url}/upscale-api/upscale/single`, {
        method: 'POST',
        body: form,
        headers: { 'x-file-name': source.name },
        signal: deadline.signal,
      });
      await res.arrayBuffer();
      return res.ok ? { ok: true } : { ok: false, advanced: false, final: String(res.status) };
    } catch {
      return { ok: false, advanced: false };
    }
  };
  const uploadOffsets = new Map<string, number>();

  const queue = [...sources];
  const lane = async () => {
    for (let source = queue.shift(); source; source = queue.shift()) {
      let streak: RetryStreak | undefined;
      for (;;) {
        if (deadline.signal.aborted) return;
        const outcome = await attempt(source);
        if (outcome.ok) {
          result.through += 1;
          break;
        }
        if (deadline.signal.aborted) return;
        if (outcome.final) {
          console.log(`  ${source.name}: refused (${outcome.final})`);
          result.failed += 1;
          break;
        }
        const decision = planRetry(outcome.advanced ? undefined : streak, Date.now(), { retryAfterMs: outcome.retryAfterMs });
        if (decision.kind === 'give-up') {
          result.failed += 1;
          break;
        }
        streak = decision.streak;
        await sleep(decision.delayMs, deadline.signal);
      }
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  clearTimeout(timer);
  proxy.cutUploadsEvery(0);
  result.wallS = (Date.now() - started) / 1000;
  result.bytesSent = proxy.counts.uploadBytesIn - before.uploadBytesIn;
  const byName = new Map(sources.map((s) => [s.name, s]));
  if (mode === 'tus') {
    for (const [name, id] of ids) {
      const source = byName.get(name)!;
      const stored = await storedUpload(target.dataDir, id);
      if (!stored || sha256(stored) !== source.sha256) result.checksumMismatches += 1;
      else result.bytesStored += stored.length;
    }
  } else {
    result.bytesStored = result.through * FILE_BYTES_OF(sources);
  }
  return result;
}

const FILE_BYTES_OF = (sources: Source[]) => sources[0]?.bytes.length ?? 0;

async function main(): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`bench:uploads ${quick ? '(quick)' : ''}: ${FILES} × ${(FILE_BYTES / 2 ** 20).toFixed(0)} MiB, link ${(LINK_BYTES_PER_S / 2 ** 20).toFixed(1)} MiB/s shared, window ${WINDOW}, limit ${LIMIT_MS / 1000} s per case`);
  console.log(`CPU: ${cpu} × ${os.cpus().length}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const sources = await makeSources();
  sourcesBySum = new Map(sources.map((s) => [s.sha256, s.bytes]));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-bench-uploads-'));
  const server = await startLoopbackCompanion({
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      LOGIN_MAX_ATTEMPTS: '10000',
      STATIC_DIR: path.join(dataDir, 'none'),
    },
    quiet: true,
    detached: true,
  });
  const sink = await startSink(new Map(sources.map((s) => [s.name, s.sha256])));
  const proxy = await startFaultProxy(server.port, 37);
  proxy.throttleUploads(LINK_BYTES_PER_S);
  const rows: Case[] = [];
  try {
    const config = (await (await fetch(`${server.url}/config.json`)).json()) as { uploads?: { tus?: string } };
    const tus = config.uploads?.tus;
    if (!tus && MODES.includes('tus')) throw new Error('the companion server names no tus endpoint in /config.json');
    const tusPath = tus ? new URL(tus, server.url).pathname : '';
    for (const cut of CUT_PERIODS_S) {
      for (const mode of MODES) {
        const row = await runCase(mode, cut, sources, proxy, { port: server.port, tusPath, dataDir }, sink.port);
        rows.push(row);
        console.log(`  done: ${mode}, cut every ${cut} s: ${row.through}/${FILES} through in ${row.wallS.toFixed(1)} s`);
      }
    }
  } finally {
    await proxy.close();
    await sink.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const mb = (b: number) => (b / 2 ** 20).toFixed(1);
  console.log('');
  console.log('| cut every | upload | files through | bytes sent (MiB) | bytes stored (MiB) | sent per stored | wall time (s) | checksum mismatches |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const ratio = r.bytesStored > 0 ? (r.bytesSent / r.bytesStored).toFixed(2) : '∞';
    console.log(
      `| ${r.cutEveryS} s | ${r.mode === 'tus' ? 'tus (resumable)' : 'whole-file resend'} | ${r.through}/${FILES} | ${mb(r.bytesSent)} | ${mb(r.bytesStored)} | ${ratio} | ${r.wallS.toFixed(1)} | ${r.mode === 'tus' ? r.checksumMismatches : 'n/a'} |`,
    );
  }
  console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

await main();
