// The cancel storm of issue 22 (finding 2), against a real companion server with the built-in
// engine: 3 calls of 10 videos, all 30 cancelled at once; then 100 videos (10 calls of 10)
// cancelled one by one. Prints how many rows were left "generating" (or "pending") once every
// job had settled, and how long each part took. Starts and stops its own server process on a free
// loopback port with a temporary data folder; asserts nothing, exits by itself.
//
//   node --import tsx scripts/bench-generation/cancel-storm.ts [--root <checkout>] [--skip-one-by-one]
//
// --root runs the server of another checkout (e.g. an export of an older commit) to compare.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { REPO_ROOT, startLoopbackCompanion, type LoopbackCompanion } from '../../tests/support/processes.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = path.resolve(option('--root') ?? REPO_ROOT);
const oneByOne = !args.includes('--skip-one-by-one');
/** How long rows may take to settle after the last cancel before the rest count as stranded. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 15_000);
const ADMIN = { account: 'bench-admin', password: 'bench-admin-pass' };

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}
interface Video {
  id: number;
  status: string;
  error: { code: string } | null;
}

async function startServer(): Promise<LoopbackCompanion & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-cancel-storm-'));
  const server = await startLoopbackCompanion({
    root,
    quiet: true,
    env: {
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-pwa'),
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    readyTimeoutMs: 90_000,
  });
  return { ...server, dataDir };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const server = await startServer();
const { url, dataDir } = server;

async function call<T>(method: string, route: string, token: string | undefined, body?: unknown): Promise<{ status: number; body: Envelope<T> }> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      'accept-language': 'en-US',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: Envelope<T>;
  try {
    parsed = JSON.parse(text) as Envelope<T>;
  } catch {
    parsed = { code: res.status, message: text.slice(0, 200), data: undefined as T };
  }
  return { status: res.status, body: parsed };
}

async function signIn(account: string, password: string): Promise<string> {
  const r = await call<{ token: string }>('POST', '/api/auth/login-password', undefined, { account, password });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.body.message}`);
  return r.body.data.token;
}

/** A GENERAL user of its own, so each part's limits and lists are its own. */
async function newUser(adminToken: string, name: string): Promise<string> {
  const account = `bench-${name}-${Date.now().toString(36)}`;
  const r = await call('POST', '/api/users/', adminToken, { account, password: 'bench-pass-123', user_level: 'GENERAL' });
  if (r.status !== 201) throw new Error(`could not create a user: ${r.status} ${r.body.message}`);
  return signIn(account, 'bench-pass-123');
}

/** An analysis with its six candidate images, through the real call and the built-in engine. */
async function candidates(token: string): Promise<number[]> {
  const model = await sharp({ create: { width: 256, height: 384, channels: 3, background: '#d9cbb8' } }).png().toBuffer();
  const stripes = Buffer.alloc(96 * 96 * 3);
  for (let i = 0; i < 96 * 96; i++) {
    const red = Math.floor((i % 96) / 12) % 2 === 0;
    stripes.set(red ? [192, 57, 43] : [41, 128, 185], i * 3);
  }
  const pattern = await sharp(stripes, { raw: { width: 96, height: 96, channels: 3 } }).png().toBuffer();
  const form = new FormData();
  form.append('prompt', 'A summer dress in striped twill');
  form.append('model_images', new Blob([model], { type: 'image/png' }), 'model.png');
  form.append('pattern_images', new Blob([pattern], { type: 'image/png' }), 'pattern.png');
  const res = await fetch(`${url}/image-api/analyze-images-json-stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: form,
  });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter(Boolean)
    .map((json) => JSON.parse(json) as { type: string; data?: { images: { id: number; status: string }[] }; message?: string });
  const last = events.at(-1);
  if (last?.type !== 'complete' || !last.data) throw new Error(`the analysis did not complete: ${JSON.stringify(last)}`);
  return last.data.images.filter((i) => i.status === 'completed').map((i) => i.id);
}

async function createVideos(token: string, images: number[], calls: number, tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (let c = 0; c < calls; c++) {
    const items = Array.from({ length: 10 }, (_, i) => ({ image_id: images[(c * 10 + i) % images.length]!, prompt: `${tag} ${c}.${i}`, duration: 6, resolution: '512P' }));
    const r = await call<Video[]>('POST', '/api/user/video-generations', token, { items });
    if (r.status !== 201) throw new Error(`creating videos answered ${r.status}: ${r.body.message}`);
    ids.push(...r.body.data.map((v) => v.id));
  }
  return ids;
}

async function rows(token: string, ids: number[]): Promise<Video[]> {
  const found: Video[] = [];
  for (const id of ids) {
    const r = await call<Video>('GET', `/api/user/video-generations/${id}`, token);
    if (r.status === 200) found.push(r.body.data);
  }
  return found;
}

/** Waits until every row has ended, or SETTLE_MS has passed; answers the rows as they are then. */
async function settle(token: string, ids: number[]): Promise<Video[]> {
  const end = Date.now() + SETTLE_MS;
  for (;;) {
    const now = await rows(token, ids);
    if (now.every((v) => v.status === 'failed' || v.status === 'completed') || Date.now() > end) return now;
    await sleep(500);
  }
}

function tally(videos: Video[]) {
  const count = (f: (v: Video) => boolean) => videos.filter(f).length;
  return {
    generating: count((v) => v.status === 'generating'),
    pending: count((v) => v.status === 'pending'),
    cancelled: count((v) => v.status === 'failed' && v.error?.code === 'cancelled'),
    completed: count((v) => v.status === 'completed'),
    otherFailed: count((v) => v.status === 'failed' && v.error?.code !== 'cancelled'),
  };
}

const answers = (statuses: number[]) => {
  const by = new Map<number, number>();
  for (const s of statuses) by.set(s, (by.get(s) ?? 0) + 1);
  return [...by].map(([s, n]) => `${n}×${s}`).join(', ');
};

try {
  const adminToken = await signIn(ADMIN.account, ADMIN.password);
  console.log(`server: ${root} (SQLite, built-in engine), settle wait up to ${SETTLE_MS} ms`);

  // Part 1: 3 calls of 10 videos, all 30 cancelled at once.
  const stormToken = await newUser(adminToken, 'storm');
  const stormImages = await candidates(stormToken);
  const stormIds = await createVideos(stormToken, stormImages, 3, 'Storm');
  await sleep(300); // the first two renders are running
  let t0 = performance.now();
  const stormAnswers = await Promise.all(stormIds.map((id) => call('POST', `/api/user/video-generations/${id}/cancel`, stormToken).then((r) => r.status)));
  const stormCancelMs = performance.now() - t0;
  const storm = tally(await settle(stormToken, stormIds));
  const stormTotalMs = performance.now() - t0;
  console.log(
    `cancel storm, 3 calls × 10 videos cancelled in parallel: ${storm.generating} of ${stormIds.length} rows left generating, ${storm.pending} pending ` +
      `(${storm.cancelled} cancelled, ${storm.completed} completed, ${storm.otherFailed} failed otherwise); cancels answered ${answers(stormAnswers)} ` +
      `in ${stormCancelMs.toFixed(0)} ms; rows settled after ${stormTotalMs.toFixed(0)} ms`,
  );

  if (oneByOne) {
    // Part 2: 10 calls of 10 videos, cancelled one after another.
    const serialToken = await newUser(adminToken, 'serial');
    const serialImages = await candidates(serialToken);
    const serialIds = await createVideos(serialToken, serialImages, 10, 'Serial');
    await sleep(300);
    t0 = performance.now();
    const serialAnswers: number[] = [];
    for (const id of serialIds) serialAnswers.push((await call('POST', `/api/user/video-generations/${id}/cancel`, serialToken)).status);
    const serialCancelMs = performance.now() - t0;
    const serial = tally(await settle(serialToken, serialIds));
    const serialTotalMs = performance.now() - t0;
    console.log(
      `one by one, 10 calls × 10 videos cancelled in turn: ${serial.generating} of ${serialIds.length} rows left generating, ${serial.pending} pending ` +
        `(${serial.cancelled} cancelled, ${serial.completed} completed, ${serial.otherFailed} failed otherwise); cancels answered ${answers(serialAnswers)} ` +
        `in ${serialCancelMs.toFixed(0)} ms; rows settled after ${serialTotalMs.toFixed(0)} ms`,
    );
  }
} finally {
  await server.stop(10_000);
  rmSync(dataDir, { recursive: true, force: true });
}
