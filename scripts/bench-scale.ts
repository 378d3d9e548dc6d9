// `npm run bench:scale [-- --quick]`: figures of team mode (issue 23) on this machine, with the
// cluster harness of tests/cluster (its own PostgreSQL from initdb, nginx, companion processes of
// this repository). Prints figures; asserts nothing; stops every process and removes every
// temporary folder it made, also when it fails or runs out of time.
//
// 1. Enqueue-to-start latency of a no-op job (its handler records the time it starts): pg-boss
//    (an API engine in this process enqueues, a worker engine in a child process runs) against
//    the in-process runner (in this process), on the same PostgreSQL with the same handler and
//    the default settings (poll every 1 s). Measured from just before enqueue() to the handler's
//    start, one job at a time; once with enqueue() in its own transaction, once inside the
//    caller's transaction (as the video and workshop routes do). Clocks: both processes read the
//    same wall clock (performance.timeOrigin + performance.now()).
// 2. Progress across processes: two ROLE=api replicas and one ROLE=worker (built-in engine). The
//    worker carries a probe (scripts/bench-scale/notify-probe.mjs) that stamps each progress
//    NOTIFY as its job engine hands it to its pool; this script stamps each matching `data:` event
//    as it reads it from the event stream over HTTP. The delay covers: the NOTIFY round trip and
//    commit, PostgreSQL's delivery to the replica's LISTEN connection, the replica's bus and
//    stream route, and HTTP to this process. Sources: an analysis (text pieces; its stream is on
//    replica 1, where it was posted) and videos created on replica 1 whose event stream is read
//    from replica 2.
// 3. Upscale throughput through the public upscale API (nginx → ROLE=api replicas) with 1 and
//    with 2 ROLE=worker processes, each UPSCALE_THREADS=1, UPSCALE_CONCURRENCY=1 and pinned to a
//    core of its own (taskset). A probe upscale first checks that a worker runs it (by the CPU
//    time each process spent); when none does within the timeout, or an API replica did the work,
//    it prints "skipped: <reason>". Always: the per-core figure of the engine itself (one thread,
//    pinned, in a process of its own, after a warm-up), the basis of the README's projection.
// --quick: fewer jobs, one analysis and one video, fewer images.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pino from 'pino';
import sharp from 'sharp';
import { atExit, killNow } from '../tests/cluster/cleanup.js';
import { designImages } from './bench-images.js';
import { readEventStream } from './read-event-stream.js';
import { clusterProblem, startCluster, type Cluster, type Companion } from '../tests/cluster/index.js';
import { openDatabase, type Db } from '../server/db/database.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { DEFAULT_RUNNER_OPTIONS, JobRunner } from '../server/jobs/job-runner.js';
import type { JobHandler } from '../server/jobs/job-handler.js';
import type { JobQueue } from '../server/jobs/job-queue.js';
import type { JobDb } from '../server/jobs/job-table.js';
import { TeamJobEngine } from '../server/jobs/pgboss/team-engine.js';
import { UpscaleEngine } from '../server/upscale/engine.js';
import { defaultModelsDir } from '../server/upscale/model-store.js';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const quick = process.argv.includes('--quick');
const log = pino({ level: 'silent' });
const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (values: number[], p: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (v: number): string =>
  Number.isNaN(v) ? 'n/a' : v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`;
const spread = (v: number[]): string =>
  `p50 ${ms(pct(v, 50))}, p95 ${ms(pct(v, 95))}, max ${ms(Math.max(...v))} (${v.length} samples)`;
const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

const NOOP_KIND = 'bench-noop';
const MODEL = 'up2x-conservative';

/** The no-op job both engines run: it only says when it started. */
function noopHandler(onStart: (refId: number, at: number) => void): JobHandler {
  return {
    kind: NOOP_KIND,
    lane: () => 'bench',
    timeoutMs: 60_000,
    async run({ job }) {
      onStart(job.ref_id, now());
    },
    async fail() {},
  };
}

const teamSettings = {
  runsJobs: false,
  concurrency: DEFAULT_RUNNER_OPTIONS.concurrency,
  pollMs: DEFAULT_RUNNER_OPTIONS.pollMs,
  budgetMs: DEFAULT_RUNNER_OPTIONS.budgetMs,
  backoff: DEFAULT_RUNNER_OPTIONS.backoff,
  log,
  now: () => new Date(),
};

// ---------------------------------------------------------------------------------------------
// 1. enqueue-to-start latency

/** Child process: a team worker engine on its own connections; reports each start over IPC. */
async function latencyWorker(url: string, schema: string, bossSchema: string): Promise<void> {
  const db = await openDatabase({ kind: 'postgres', url, schema });
  const engine = new TeamJobEngine({
    ...teamSettings,
    url,
    schema: bossSchema,
    appDb: db.kysely,
    runsJobs: true,
  });
  engine.register(noopHandler((refId, at) => process.send?.({ refId, at })));
  await engine.start();
  process.send?.({ ready: true });
  process.once(
    'disconnect',
    () => void engine.stop().finally(() => db.close().finally(() => process.exit(0))),
  );
}

interface Starts {
  wait(refId: number, timeoutMs: number): Promise<number | undefined>;
  record(refId: number, at: number): void;
}

function startBook(): Starts {
  const seen = new Map<number, number>();
  const waiting = new Map<number, (at: number) => void>();
  return {
    record(refId, at) {
      seen.set(refId, at);
      waiting.get(refId)?.(at);
    },
    wait(refId, timeoutMs) {
      const known = seen.get(refId);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(refId);
          resolve(undefined);
        }, timeoutMs);
        waiting.set(refId, (at) => {
          clearTimeout(timer);
          waiting.delete(refId);
          resolve(at);
        });
      });
    },
  };
}

async function enqueueLatency(cluster: Cluster): Promise<void> {
  console.log('\n## 1. Enqueue-to-start latency (no-op job, one at a time, default poll 1 s)');
  const url = await cluster.postgres.createDatabase('bench_latency');
  const schema = 'bench';
  const bossSchema = 'bench_jobs';
  const db: Db = await openDatabase({ kind: 'postgres', url, schema });
  await migrateToLatest(db);
  const inProcessStarts = startBook();
  const teamStarts = startBook();
  const runner = new JobRunner({
    ...DEFAULT_RUNNER_OPTIONS,
    db: db.kysely as JobDb,
    now: () => new Date(),
    log,
  });
  runner.register(noopHandler((refId, at) => inProcessStarts.record(refId, at)));
  const api = new TeamJobEngine({ ...teamSettings, url, schema: bossSchema, appDb: db.kysely });
  api.register(noopHandler(() => undefined));
  await api.start();
  const worker = spawn(
    process.execPath,
    ['--import', 'tsx', self, '--latency-worker', url, schema, bossSchema],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      cwd: root,
    },
  );
  const unregister = atExit(() => killNow(worker.pid, false));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the latency worker did not start within 60 s')),
        60_000,
      );
      worker.on('message', (message) => {
        const m = message as { ready?: boolean; refId?: number; at?: number };
        if (m.ready) {
          clearTimeout(timer);
          resolve();
        } else if (m.refId !== undefined && m.at !== undefined) teamStarts.record(m.refId, m.at);
      });
      worker.once('exit', (code) => reject(new Error(`the latency worker exited (${code})`)));
    });
    runner.start();

    let nextRef = 1;
    const one = async (
      queue: JobQueue,
      starts: Starts,
      inTransaction: boolean,
    ): Promise<number | undefined> => {
      const refId = nextRef++;
      const t0 = now();
      if (inTransaction) {
        await db.kysely.transaction().execute(async (trx) => {
          await queue.enqueue({ kind: NOOP_KIND, refId }, { trx });
        });
      } else await queue.enqueue({ kind: NOOP_KIND, refId });
      const at = await starts.wait(refId, 10_000);
      return at === undefined ? undefined : at - t0;
    };
    const variants = [
      { name: 'enqueue() in its own transaction', count: quick ? 100 : 200, trx: false },
      { name: "enqueue() in the caller's transaction", count: quick ? 20 : 50, trx: true },
    ];
    const rows: string[] = [];
    for (const variant of variants) {
      const samples = { team: [] as number[], inProcess: [] as number[] };
      let missing = 0;
      // Warm-up (connections, prepared queues), then alternating blocks so drift hits both alike.
      for (let i = 0; i < 5; i++) {
        await one(api, teamStarts, variant.trx);
        await one(runner, inProcessStarts, variant.trx);
      }
      const block = 10;
      for (let done = 0; done < variant.count; done += block) {
        for (const [side, queue, starts] of [
          ['team', api, teamStarts],
          ['inProcess', runner, inProcessStarts],
        ] as const) {
          for (let i = 0; i < Math.min(block, variant.count - done); i++) {
            const d = await one(queue, starts, variant.trx);
            if (d === undefined) missing += 1;
            else samples[side].push(d);
          }
        }
      }
      rows.push(`| ${variant.name} | team (pg-boss, worker in another process) | ${spread(samples.team)} |`);
      rows.push(`| ${variant.name} | in-process runner | ${spread(samples.inProcess)} |`);
      if (missing > 0) rows.push(`| ${variant.name} | (jobs not started within 10 s) | ${missing} |`);
    }
    console.log('| enqueue | engine | enqueue → handler start |');
    console.log('|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    worker.disconnect();
    await waitExit(worker, 10_000);
    unregister();
    await runner.stop();
    await api.stop();
    await db.close();
  }
}

function waitExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      killNow(child.pid, false);
      resolve();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

interface Envelope<T> {
  data: T;
  message?: string;
}

async function call<T>(
  base: string,
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en-US',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Envelope<T>;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${json.message ?? ''}`);
  return json.data;
}

async function signIn(base: string, account: string, password: string): Promise<string> {
  return (
    await call<{ token: string }>(base, 'POST', '/api/auth/login-password', undefined, { account, password })
  ).token;
}

async function waitForLog(c: Companion, pattern: RegExp, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pattern.test(c.log())) return true;
    if (!c.running()) throw new Error(`${c.name} exited:\n${c.log().split('\n').slice(-15).join('\n')}`);
    await sleep(200);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// 2. progress from a worker to an event stream on an API replica

interface Stamp {
  t: number;
  topic: string;
  event: Record<string, unknown>;
}

function readStamps(file: string): Stamp[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const stamps: Stamp[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const { t, payload } = JSON.parse(line) as { t: number; payload: string };
    const wire = JSON.parse(payload) as { t?: string; e?: Record<string, unknown> };
    // A spilled (large) event carries only a pointer: not matched.
    if (wire.t && wire.e) stamps.push({ t, topic: wire.t, event: wire.e });
  }
  return stamps;
}

/** Pairs each received event with the next stamp, in order, that `same` says it comes from. */
function pair<R>(
  stamps: Stamp[],
  received: { at: number; value: R }[],
  same: (s: Stamp, r: R) => boolean,
): number[] {
  const delays: number[] = [];
  let from = 0;
  for (const r of received) {
    const i = stamps.findIndex((s, k) => k >= from && same(s, r.value));
    if (i < 0) continue;
    delays.push(r.at - stamps[i]!.t);
    from = i + 1;
  }
  return delays;
}

async function progressDelay(cluster: Cluster, token: string): Promise<void> {
  console.log('\n## 2. Progress: worker NOTIFY → event stream (SSE over HTTP) on an API replica');
  const notifyLog = path.join(cluster.dir, 'notify-stamps.jsonl');
  const probe = pathToFileURL(path.join(path.dirname(self), 'bench-scale', 'notify-probe.mjs')).href;
  const worker = await cluster.addCompanion({
    name: 'worker-generation',
    readyPath: null,
    env: {
      ROLE: 'worker',
      BENCH_NOTIFY_LOG: notifyLog,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${probe}`.trim(),
    },
  });
  try {
    if (!(await waitForLog(worker, /worker is running/i, 90_000)))
      throw new Error('the worker did not start within 90 s');
    const [r1, r2] = cluster.replicas() as [Companion, Companion];
    const images = await designImages(384);
    const textDelays: number[] = [];
    const videoDelays: number[] = [];
    const counts = { texts: 0, progress: 0 };
    // Each round: an analysis (about ten text pieces) and two videos (a progress event every ~2 s
    // while ffmpeg renders).
    const analyses = quick ? 4 : 12;
    const videosPerRound = 2;
    for (let round = 0; round < analyses; round++) {
      // An analysis posted to replica 1: its stream is there, its job runs on the worker.
      const form = new FormData();
      form.set('prompt', 'A summer dress in the striped fabric');
      form.set('request_id', `bench-scale-${round}-${Date.now()}`);
      form.set('fabric_name', 'Striped cotton');
      form.set('language', 'en-US');
      form.set('model_images', new Blob([new Uint8Array(images.model)], { type: 'image/png' }), 'model.png');
      form.set(
        'pattern_images',
        new Blob([new Uint8Array(images.pattern)], { type: 'image/png' }),
        'pattern.png',
      );
      const texts: { at: number; value: string }[] = [];
      // Every round writes the same text: only this round's stamps are its own.
      const roundStart = now();
      let imageIds: number[] = [];
      const res = await fetch(`${r1.url}/image-api/analyze-images-json-stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
        body: form,
        signal: AbortSignal.timeout(180_000),
      });
      await readEventStream(res, (event, at) => {
        if (event.type === 'streaming' && typeof event.content === 'string')
          texts.push({ at, value: event.content });
        if (event.type === 'complete') {
          const data = event.data as { images?: { id: number; status: string }[] } | undefined;
          imageIds = (data?.images ?? []).filter((i) => i.status === 'completed').map((i) => i.id);
        }
      });
      await sleep(300);
      counts.texts += texts.length;
      textDelays.push(
        ...pair(
          readStamps(notifyLog).filter((stamp) => stamp.t >= roundStart),
          texts,
          (s, content) =>
            s.topic.startsWith('request:') && s.event.type === 'text' && s.event.content === content,
        ),
      );
      if (imageIds.length === 0) throw new Error('the analysis made no image for the videos');

      // Videos created on replica 1; their event stream is read from replica 2.
      const ids: number[] = [];
      for (const imageId of imageIds.slice(0, videosPerRound)) {
        const created = await call<{ id: number }[]>(r1.url, 'POST', '/api/user/video-generations', token, {
          image_id: imageId,
          prompt: 'The dress sways in a light breeze',
          duration: 6,
          resolution: '512P',
        });
        ids.push(created[0]!.id);
      }
      const progress: { at: number; value: { id: number; progress: number } }[] = [];
      const stream = await fetch(`${r2.url}/api/user/video-generations/events?ids=${ids.join(',')}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
        signal: AbortSignal.timeout(240_000),
      });
      await readEventStream(stream, (event, at) => {
        if (
          event.type === 'progress' &&
          typeof event.progress === 'number' &&
          event.retry_in_ms === undefined
        )
          progress.push({ at, value: { id: Number(event.id), progress: event.progress } });
      });
      await sleep(300);
      counts.progress += progress.length;
      const stamps = readStamps(notifyLog);
      // A 'started' event reaches the stream as progress 1; 'progress' events carry their value.
      for (const id of ids) {
        videoDelays.push(
          ...pair(
            stamps,
            progress.filter((p) => p.value.id === id),
            (s, v) =>
              s.topic === `video:${id}` &&
              ((s.event.type === 'started' && v.progress === 1) ||
                (s.event.type === 'progress' && s.event.progress === v.progress)),
          ),
        );
      }
    }
    console.log('| source | stream on | worker NOTIFY → event read by the client |');
    console.log('|---|---|---|');
    console.log(
      `| analysis text pieces (${analyses} analyses) | replica 1 (where it was posted) | ${spread(textDelays)} |`,
    );
    console.log(
      `| video progress (${analyses * videosPerRound} videos) | replica 2 (created on replica 1) | ${spread(videoDelays)} |`,
    );
    console.log(`| all | | ${spread([...textDelays, ...videoDelays])} |`);
    // A video's first events may come before its stream (opened after the create call) listens.
    console.log(
      `matched with a worker stamp: ${textDelays.length} of ${counts.texts} text events, ${videoDelays.length} of ${counts.progress} progress events read`,
    );
  } finally {
    await worker.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. upscale throughput

/** CPU seconds (user + system, with reaped children) of a process and everything under it. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      // utime, stime, cutime, cstime: fields 14-17 of stat(5), in clock ticks (100 per second).
      cpu.set(
        Number(entry),
        (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100,
      );
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const walk = (p: number) => {
    total += cpu.get(p) ?? 0;
    for (const [child, parent] of parents) if (parent === p) walk(child);
  };
  walk(pid);
  return total;
}

async function photo640(): Promise<Buffer> {
  // Gradients, shapes and fine noise: edges plus texture, like a photo of a garment.
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#d9c7a7"/><stop offset="1" stop-color="#5a6f8f"/></linearGradient></defs>` +
    `<rect width="640" height="480" fill="url(#g)"/><circle cx="250" cy="240" r="140" fill="#a0523d" opacity="0.7"/>` +
    `<path d="M380 80 L600 120 L560 420 L400 380 Z" fill="#2e86ab" opacity="0.6"/></svg>`;
  const noise = await sharp({
    create: {
      width: 640,
      height: 480,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: noise, blend: 'soft-light' }])
    .blur(0.6)
    .png()
    .toBuffer();
}

type UpscaleAnswer = { ok: true } | { ok: false; status: number; reason: string };

async function upscaleOnce(
  base: string,
  token: string,
  image: Buffer,
  signal: AbortSignal,
): Promise<UpscaleAnswer> {
  for (;;) {
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'photo.png');
    form.set('model_name', MODEL);
    const res = await fetch(`${base}/upscale-api/upscale/single`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
      body: form,
      signal,
    });
    const body = (await res.json().catch(() => ({}))) as { status?: string; message?: string; code?: string };
    if (res.status === 503 && res.headers.get('retry-after')) {
      // The team's queue is full: wait as told, as the PWA does.
      await sleep(Math.min(10, Number(res.headers.get('retry-after')) || 1) * 1000);
      continue;
    }
    if (res.ok && body.status === 'success') return { ok: true };
    return {
      ok: false,
      status: res.status,
      reason: `${res.status} ${body.code ?? ''} ${body.message ?? ''}`.trim(),
    };
  }
}

/** `count` upscales, `concurrency` at a time; images per minute from the first send to the last answer. */
async function throughput(
  base: string,
  token: string,
  image: Buffer,
  count: number,
  concurrency: number,
  timeoutMs: number,
) {
  const signal = AbortSignal.timeout(timeoutMs);
  let next = 0;
  let done = 0;
  const failures: string[] = [];
  const started = now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const r = await upscaleOnce(base, token, image, signal).catch((e: unknown) => ({
          ok: false as const,
          status: 0,
          reason: String(e),
        }));
        if (r.ok) done += 1;
        else failures.push(r.reason);
      }
    }),
  );
  const minutes = (now() - started) / 60_000;
  return { done, failures, minutes, perMinute: done / minutes };
}

async function startUpscaleWorker(cluster: Cluster, index: number): Promise<Companion> {
  const worker = await cluster.addCompanion({
    name: `worker-upscale-${index + 1}`,
    readyPath: null,
    env: { ROLE: 'worker', UPSCALE_THREADS: '1', UPSCALE_CONCURRENCY: '1' },
  });
  const core = index % os.availableParallelism();
  // Every thread it has and will make (threads inherit the affinity of the thread that makes them).
  try {
    execFileSync('taskset', ['-a', '-c', '-p', String(core), String(worker.pid())], { stdio: 'ignore' });
  } catch {
    console.log(`  (taskset could not pin ${worker.name} to core ${core}; it runs unpinned)`);
  }
  if (!(await waitForLog(worker, /worker is running/i, 90_000)))
    throw new Error(`${worker.name} did not start within 90 s`);
  return worker;
}

async function upscaleThroughput(
  cluster: Cluster,
  token: string,
): Promise<{ skipped?: string; perWorkerMinute?: number }> {
  console.log(
    `\n## 3. Upscale throughput (640x480 PNG, ${MODEL}, through nginx → ROLE=api replicas → ROLE=worker)`,
  );
  const image = await photo640();
  const workers: Companion[] = [];
  const probeTimeoutS = quick ? 90 : 180;
  try {
    workers.push(await startUpscaleWorker(cluster, 0));
    const before = {
      worker: cpuSeconds(workers[0]!.pid()),
      api: cluster.replicas().map((r) => cpuSeconds(r.pid())),
    };
    const t = now();
    const probe = await upscaleOnce(
      cluster.url,
      token,
      image,
      AbortSignal.timeout(probeTimeoutS * 1000),
    ).catch((e: unknown): UpscaleAnswer => ({
      ok: false,
      status: 0,
      reason: e instanceof Error && e.name === 'TimeoutError' ? 'timeout' : String(e),
    }));
    const probeS = (now() - t) / 1000;
    const workerCpu = cpuSeconds(workers[0]!.pid()) - before.worker;
    const apiCpu = cluster.replicas().reduce((sum, r, i) => sum + cpuSeconds(r.pid()) - before.api[i]!, 0);
    console.log(
      `probe: one upscale in ${probeS.toFixed(1)} s (${probe.ok ? 'answered' : probe.reason}); CPU spent meanwhile: worker ${workerCpu.toFixed(1)} s, API replicas ${apiCpu.toFixed(1)} s`,
    );
    if (!probe.ok && probe.reason === 'timeout')
      return { skipped: `no ROLE=worker process finished an upscale job within ${probeTimeoutS} s` };
    if (!probe.ok) return { skipped: `the upscale API answered ${probe.reason}` };
    if (workerCpu < apiCpu)
      return {
        skipped: `the upscale ran on a ROLE=api replica (${apiCpu.toFixed(1)} CPU s there, ${workerCpu.toFixed(1)} s on the worker): this build does not send upscales through the team queue`,
      };

    const perWorker = quick ? 4 : 8;
    const timeoutMs = (quick ? 150 : 300) * 1000;
    const one = await throughput(cluster.url, token, image, perWorker, 2, timeoutMs);
    workers.push(await startUpscaleWorker(cluster, 1));
    // The new worker's first job loads the model: two at once, so each worker takes one.
    await throughput(cluster.url, token, image, 2, 2, timeoutMs);
    const two = await throughput(cluster.url, token, image, 2 * perWorker, 4, timeoutMs);
    console.log('| workers (1 thread each, pinned) | images | time | images per minute |');
    console.log('|---|---|---|---|');
    for (const [n, r] of [
      [1, one],
      [2, two],
    ] as const)
      console.log(
        `| ${n} | ${r.done}${r.failures.length ? ` (${r.failures.length} failed: ${r.failures[0]})` : ''} | ${(r.minutes * 60).toFixed(1)} s | ${r.perMinute.toFixed(1)} |`,
      );
    console.log(`ratio 2 workers / 1 worker: ${(two.perMinute / one.perMinute).toFixed(2)}x`);
    return { perWorkerMinute: one.perMinute };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

/** Child process (pinned by the caller): the engine alone, one thread, warm-up then timed runs. */
async function engineCore(runs: number): Promise<void> {
  const image = await photo640();
  const engine = new UpscaleEngine({ modelsDir: defaultModelsDir(), threads: 1 });
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await engine.upscale(image, { modelName: MODEL });
    if (i > 0) {
      times.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  await engine.close();
  process.stdout.write(JSON.stringify({ times, cpu }));
}

async function perCoreEngine(): Promise<number> {
  const runs = quick ? 2 : 4;
  const args = ['-c', '0', process.execPath, '--import', 'tsx', self, '--engine-core', String(runs)];
  const child = spawn('taskset', args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
  const unregister = atExit(() => killNow(child.pid, false));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  unregister();
  if (code !== 0) throw new Error(`the engine measurement exited ${code}`);
  const { times, cpu } = JSON.parse(out) as { times: number[]; cpu: number[] };
  const wall = pct(times, 50);
  const cpuMs = pct(cpu, 50);
  // On a shared machine the wall time includes waiting for the core; the CPU time per image is
  // what a core of its own would take (the engine's other threads, libvips', are counted too).
  console.log(
    `per core, the engine alone (UpscaleEngine, 1 thread, pinned to core 0, after a warm-up, PNG decode and encode included, no HTTP or queue), median of ${times.length} runs: ` +
      `${(wall / 1000).toFixed(2)} s wall (${(60_000 / wall).toFixed(1)} images/min), ${(cpuMs / 1000).toFixed(2)} CPU s per image (${(60_000 / cpuMs).toFixed(1)} images/min on a core of its own)`,
  );
  const perMinute = 60_000 / cpuMs;
  return perMinute;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const problem = clusterProblem();
  if (problem) {
    console.log(`bench:scale skipped: ${problem}`);
    return;
  }
  const limitMin = quick ? 8 : 15;
  // A hard bound: at exit the harness kills what it started and removes its folders (cleanup.ts).
  setTimeout(() => {
    console.error(`bench:scale: time limit of ${limitMin} min reached; stopping`);
    process.exit(2);
  }, limitMin * 60_000).unref();
  const started = performance.now();
  console.log(
    `bench:scale — ${os.availableParallelism()} cores, load average ${load()} (1/5/15 min)${quick ? ', --quick' : ''}`,
  );
  let cluster: Cluster | undefined;
  try {
    let t = performance.now();
    cluster = await startCluster({
      replicas: 2,
      env: {
        TEAM_MODE: 'true',
        ROLE: 'api',
        PGBOSS_SCHEMA: 'pgboss',
        ARGON2_MEMORY_KIB: '1024',
        ARGON2_TIME_COST: '1',
      },
    });
    console.log(
      `cluster: own PostgreSQL, nginx, 2 ROLE=api replicas, started in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    await enqueueLatency(cluster);

    const admin = await signIn(cluster.url, cluster.admin.account, cluster.admin.password);
    // A designer upscales; a general user analyses and makes videos (route-access.ts).
    const user = async (account: string, level: string) => {
      await call(cluster!.url, 'POST', '/api/users/', admin, {
        account,
        password: 'bench-pass-123',
        user_level: level,
      });
      return signIn(cluster!.url, account, 'bench-pass-123');
    };
    const token = await user('bench-user', 'GENERAL');
    const designer = await user('bench-designer', 'DESIGNER');

    t = performance.now();
    await progressDelay(cluster, token);
    console.log(`(section 2 took ${((performance.now() - t) / 1000).toFixed(1)} s)`);

    t = performance.now();
    const upscale = await upscaleThroughput(cluster, designer);
    if (upscale.skipped) console.log(`upscale throughput with 1 and 2 workers: skipped: ${upscale.skipped}`);
    await perCoreEngine();
    console.log(`(section 3 took ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  } finally {
    await cluster?.teardown().catch((e: unknown) => console.error(`teardown: ${String(e)}`));
  }
  console.log(
    `\ntotal ${((performance.now() - started) / 60_000).toFixed(1)} min; load average at the end ${load()}`,
  );
}

if (process.argv[2] === '--latency-worker')
  await latencyWorker(process.argv[3]!, process.argv[4]!, process.argv[5]!);
else if (process.argv[2] === '--engine-core') await engineCore(Number(process.argv[3]));
else await main();
