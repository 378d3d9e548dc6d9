// `npm run bench:collection`: a collection of BENCH_FABRICS (default 40) fabrics on the built-in
// engine against the same fabrics sent one by one through the workflow's own calls, back to back,
// on one companion server (SQLite, a temporary data folder, a free loopback port). Prints each
// figure beside its target; asserts nothing.
//
// - One by one: per fabric, the analyse stream (six candidates), then the video prompt stream for
//   its first candidate, then the video from the first prompt, started and left to run while the
//   next fabric is analysed (as a designer at the workflow page does); the run ends when every
//   video is done.
// - The collection: every image up through tus, one POST /collections (six candidates, the built-in
//   score, straight through to the video), then GET /collections/:id read until every fabric is done.
// - During each of the two, a second user's analyse requests (their first event from the job)
//   against the same request on the idle server: both runs carry the same extra work, so the
//   ratio compares the collection with the walk alone; the server's resident memory sampled every
//   200 ms against idle during the collection.
// - Last, the 400-row sheet through the import worker's stages (npm run bench:collection-import).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CollectionRef, CollectionView, CreateCollection } from '../shared/collections/collection-types.js';
import { runTusAttempt } from '../src/lib/upload/tus-upload.js';
import { startLoopbackCompanion, type LoopbackCompanion } from '../tests/support/processes.js';
import { analyse, call, type AnalysisTiming } from './bench-calls.js';
import { designImages } from './bench-images.js';
import { machineLine } from './machine-line.js';
import { readEventStream } from './read-event-stream.js';

const FABRICS = Math.max(1, Number(process.env.BENCH_FABRICS ?? 40));
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
const ADMIN = { account: 'bench-admin', password: 'bench-password' };
const PROMPT = 'A summer dress in the fabric, studio light';
/** Uploads in flight at once (the import page sends three at a time). */
const UPLOADS_AT_ONCE = 3;

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'none');
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server process's resident memory, sampled until stopped; the peak is kept. */
function sampleMemory(pid: number): { peak: () => number; stop: () => void } {
  let peak = 0;
  const read = () => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) peak = Math.max(peak, Number(match[1]) * 1024);
  };
  read();
  const timer = setInterval(read, 200);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

async function signIn(url: string, account: string, password: string): Promise<string> {
  return (await call<{ token: string }>(`${url}/api/auth/login-password`, 'POST', undefined, { account, password })).token;
}

/** One fabric through the workflow's calls: analyse, prompts for its first candidate, then its video started. */
async function oneFabric(url: string, token: string, index: number, images: { model: Buffer; pattern: Buffer }): Promise<number> {
  const analysis = await analyse(url, token, `one-by-one-${index}`, images);
  const image = analysis.images.find((i) => i.status === 'completed');
  if (!image) throw new Error(`fabric ${index}: the analysis made no candidate (${analysis.outcome})`);
  const res = await fetch(`${url}/image-api/video-prompts-stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en-US' },
    body: JSON.stringify({ image_ids: [image.id], prompt: PROMPT, language: 'en-US' }),
  });
  if (!res.ok || !res.body) throw new Error(`video prompts: ${res.status}`);
  let promptId: number | undefined;
  await readEventStream(res, (data) => {
    const event = data as { type: string; prompts?: { id: number }[] };
    if (event.type === 'prompts') promptId ??= event.prompts?.[0]?.id;
  });
  if (promptId === undefined) throw new Error(`fabric ${index}: no video prompt`);
  const [video] = await call<{ id: number }[]>(`${url}/api/user/video-generations`, 'POST', token, {
    image_id: image.id,
    video_prompt_id: promptId,
  });
  return video!.id;
}

async function videosDone(url: string, token: string, ids: number[]): Promise<void> {
  for (;;) {
    const states = await Promise.all(ids.map((id) => call<{ status: string }>(`${url}/api/user/video-generations/${id}`, 'GET', token)));
    const open = states.filter((v) => v.status !== 'completed' && v.status !== 'failed').length;
    if (open === 0) return;
    await sleep(500);
  }
}

async function uploadOverTus(url: string, token: string, bytes: Buffer, name: string): Promise<string> {
  const outcome = await runTusAttempt({
    endpoint: `${url}/api/uploads/`,
    file: bytes,
    size: bytes.length,
    fileName: name,
    fileType: 'image/png',
    purpose: 'collection',
    token: () => token,
    signal: AbortSignal.timeout(60_000),
  });
  if (outcome.kind !== 'done') throw new Error(`upload of ${name}: ${outcome.kind}`);
  return outcome.id;
}

interface CollectionTiming {
  /** Every image up through tus, before the create call. */
  uploadsMs: number;
  candidatesMs: number;
  videosMs: number;
  done: number;
  failed: number;
}

async function runCollection(url: string, token: string, images: { model: Buffer; pattern: Buffer }): Promise<CollectionTiming> {
  const started = performance.now();
  const items: CreateCollection['items'] = [];
  // Three uploads in flight at once, as the import page sends them.
  const codes = Array.from({ length: FABRICS }, (_, i) => `F${String(i + 1).padStart(3, '0')}`);
  const sends = codes.flatMap((code) => [
    () => uploadOverTus(url, token, images.model, `${code}_model_1.png`),
    () => uploadOverTus(url, token, images.pattern, `${code}_pattern.png`),
  ]);
  const ids: string[] = new Array<string>(sends.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: UPLOADS_AT_ONCE }, async () => {
      for (let k = next++; k < sends.length; k = next++) ids[k] = await sends[k]!();
    }),
  );
  codes.forEach((code, i) =>
    items.push({
      code,
      name: `Fabric ${i + 1}`,
      fabric: { fabric_name: `Fabric ${i + 1}`, composition: '100% cotton' },
      model_upload_ids: [ids[2 * i]!],
      pattern_upload_ids: [ids[2 * i + 1]!],
    }),
  );
  const uploadsMs = performance.now() - started;
  const body: CreateCollection = {
    client_collection_id: `bench-${Date.now()}`,
    name: 'Bench season',
    language: 'en-US',
    settings: {
      image_prompt: PROMPT,
      candidates: 6,
      pick_rule: 'score',
      stop_for_review: false,
      video: { kind: 'standard', aspect: 'auto', camera: [], duration: 6, resolution: '768P' },
    },
    items,
  };
  const ref = await call<CollectionRef>(`${url}/api/collections`, 'POST', token, body);
  const timing: CollectionTiming = { uploadsMs, candidatesMs: NaN, videosMs: NaN, done: 0, failed: 0 };
  for (;;) {
    const view = await call<CollectionView>(`${url}/api/collections/${ref.id}`, 'GET', token);
    const pastCandidates = view.items.every(
      (item) => item.status !== 'queued' && item.status !== 'running' ? true : item.stage !== 'analysis' && item.stage !== 'candidates',
    );
    if (pastCandidates && Number.isNaN(timing.candidatesMs)) timing.candidatesMs = performance.now() - started;
    if (view.status === 'completed' || view.status === 'cancelled') {
      timing.videosMs = performance.now() - started;
      timing.done = view.counts.done;
      timing.failed = view.counts.failed;
      return timing;
    }
    await sleep(500);
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-bench-collection-'));
let server: LoopbackCompanion | undefined;
try {
  console.log(machineLine());
  server = await startLoopbackCompanion({
    inheritEnv: false,
    quiet: true,
    env: {
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-pwa'),
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      UPSCALE_URL: 'http://127.0.0.1:9/upscale-api',
      // The one-by-one walk keeps up to FABRICS videos waiting.
      JOB_MAX_WAITING_PER_USER: String(FABRICS + 10),
    },
  });
  const { url } = server;
  const admin = await signIn(url, ADMIN.account, ADMIN.password);
  for (const account of ['bench-designer', 'bench-other']) {
    await call(`${url}/api/users/`, 'POST', admin, { account, password: 'pass-123456', user_level: 'GENERAL' });
  }
  const designer = await signIn(url, 'bench-designer', 'pass-123456');
  const other = await signIn(url, 'bench-other', 'pass-123456');
  const images = await designImages(512);

  // Warm the engine up, then the other user's analysis on the idle server.
  await analyse(url, other, 'warm-up', images);
  const idle: AnalysisTiming[] = [];
  for (let i = 0; i < REPEAT; i++) idle.push(await analyse(url, other, `idle-${i}`, images));
  const idleFirst = median(idle.map((t) => t.firstJobEventMs));
  const pid = server.child.pid!;
  const idleMemory = sampleMemory(pid);
  await sleep(1000);
  idleMemory.stop();
  const idleRss = idleMemory.peak();

  /** The other user's analyses while `work` runs: 5 s in, then REPEAT of them 2 s apart. */
  const alongside = async <T>(label: string, work: Promise<T>): Promise<[T, AnalysisTiming[]]> => {
    const probes: AnalysisTiming[] = [];
    await sleep(5000);
    for (let i = 0; i < REPEAT; i++) {
      probes.push(await analyse(url, other, `${label}-${i}`, images));
      await sleep(2000);
    }
    return [await work, probes];
  };

  // The same fabrics one by one through the workflow's calls.
  const oneStarted = performance.now();
  const walk = async () => {
    const videoIds: number[] = [];
    for (let i = 0; i < FABRICS; i++) videoIds.push(await oneFabric(url, designer, i, images));
    const candidatesMs = performance.now() - oneStarted;
    await videosDone(url, designer, videoIds);
    return candidatesMs;
  };
  const [oneCandidatesMs, walkProbes] = await alongside('walk', walk());
  const oneVideosMs = performance.now() - oneStarted;
  const walkFirst = Math.max(...walkProbes.map((t) => t.firstJobEventMs));
  console.log(`one by one: ${FABRICS} fabrics, last candidates at ${s(oneCandidatesMs)}, all videos at ${s(oneVideosMs)}`);

  // The collection, with the other user's analyses during it and the memory sampled.
  const memory = sampleMemory(pid);
  const [timing, busy] = await alongside('busy', runCollection(url, designer, images));
  memory.stop();
  const busyFirst = Math.max(...busy.map((t) => t.firstJobEventMs));
  const perMinute = (ms: number) => (FABRICS / (ms / 60_000)).toFixed(2);
  const ratio = oneVideosMs / timing.videosMs;

  console.log(
    `collection: ${FABRICS} fabrics (${timing.done} done, ${timing.failed} failed), images up at ${s(timing.uploadsMs)}, all candidates at ${s(timing.candidatesMs)}, all videos at ${s(timing.videosMs)}`,
  );
  console.log(
    `throughput: collection ${perMinute(timing.videosMs)} fabrics/min, one by one ${perMinute(oneVideosMs)} fabrics/min: ` +
      `${(ratio * 100).toFixed(0)} % (target ≥ 90 %: ${ratio >= 0.9 ? 'met' : 'missed'})`,
  );
  const peak = memory.peak();
  console.log(
    `server memory: idle ${mib(idleRss)}, peak during the collection ${mib(peak)} (+${mib(peak - idleRss)}; target ≤ +300 MiB: ${peak - idleRss <= 300 * 1024 * 1024 ? 'met' : 'missed'})`,
  );
  console.log(
    `another user's first analysis event: idle ${s(idleFirst)}, during the one-by-one walk at most ${s(walkFirst)}, during the collection at most ${s(busyFirst)} ` +
      `(target ≤ 1 s: ${busyFirst <= 1000 ? 'met' : 'missed'})`,
  );
} finally {
  if (server) await server.stop(20_000);
  rmSync(dataDir, { recursive: true, force: true });
}

// The sheet's figures come from the import benchmark, in its own process.
await new Promise<void>((resolve) => {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bench-collection-import.ts')], { stdio: 'inherit' });
  child.once('exit', () => resolve());
  child.once('error', () => resolve());
});
