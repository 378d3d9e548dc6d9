// Fairness of the job queue (issue 22, finding 3): one user's 100-video backlog against another
// user's analysis. Starts its own companion server (built-in engine, SQLite, a temporary data
// folder, a free loopback port), makes two GENERAL users, times user B's analysis on the idle
// server, lets user A create 100 videos (10 calls of 10), then times the same analysis by B again.
// Prints the figures; asserts nothing; stops the server and removes its folder when done.
// Target: under the backlog, B's first event from its job within 5 s, and the whole analysis
// within twice its idle time. Each analysis is timed BENCH_REPEAT times (default 3); the medians
// are compared (the machine may be shared).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ADMIN = { account: 'bench-admin', password: 'bench-password' };
const VIDEOS = 100;
const PER_CALL = 10;
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
/** An analysis still running after this long is given up (reported as timed out). */
const ANALYSIS_TIMEOUT_MS = Number(process.env.BENCH_ANALYSIS_TIMEOUT_S ?? 600) * 1000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    // Only what the server needs: no provider keys, so the built-in engine does every job.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-pwa'),
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // The upscale group is not measured: do not look for its models.
      UPSCALE_URL: 'http://127.0.0.1:9/upscale-api',
      // Room for the whole backlog of the probe (the default cap, 50, would refuse half of it).
      JOB_MAX_WAITING_PER_USER: String(VIDEOS),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/config.json`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

async function call<T>(url: string, method: string, token: string | undefined, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en-US',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Envelope<T>;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

async function makeImages(): Promise<{ model: Buffer; pattern: Buffer }> {
  const model = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="768"><rect width="512" height="768" fill="#e8e2d8"/>` +
        `<ellipse cx="256" cy="150" rx="70" ry="90" fill="#c89f84"/><path d="M150 260 L362 260 L420 740 L92 740 Z" fill="#6b7fa8"/></svg>`,
    ),
  )
    .png()
    .toBuffer();
  const stripes = Array.from(
    { length: 16 },
    (_, i) => `<rect x="${i * 16}" width="8" height="256" fill="#${i % 2 ? 'b03a48' : '2e86ab'}"/>`,
  ).join('');
  const pattern = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#f4f1de"/>${stripes}</svg>`,
    ),
  )
    .png()
    .toBuffer();
  return { model, pattern };
}

interface AnalysisTiming {
  /** The stream's first event (the server says it is connecting, before any job runs). */
  connectedMs: number;
  /** The first event from the analysis job (the engine has taken it). */
  firstJobEventMs: number;
  totalMs: number;
  outcome: string;
  images: { id: number; status: string }[];
}

async function analyse(
  url: string,
  token: string,
  requestId: string,
  images: { model: Buffer; pattern: Buffer },
): Promise<AnalysisTiming> {
  const form = new FormData();
  form.set('prompt', 'A summer dress in the striped fabric');
  form.set('request_id', requestId);
  form.set('fabric_name', 'Striped cotton');
  form.set('model_images', new Blob([new Uint8Array(images.model)], { type: 'image/png' }), 'model.png');
  form.set(
    'pattern_images',
    new Blob([new Uint8Array(images.pattern)], { type: 'image/png' }),
    'pattern.png',
  );
  const started = performance.now();
  const res = await fetch(`${url}/image-api/analyze-images-json-stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: form,
    signal: AbortSignal.timeout(ANALYSIS_TIMEOUT_MS),
  });
  if (!res.ok || !res.body) throw new Error(`analysis: ${res.status} ${await res.text()}`);
  const timing: AnalysisTiming = {
    connectedMs: NaN,
    firstJobEventMs: NaN,
    totalMs: NaN,
    outcome: 'unfinished',
    images: [],
  };
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    await read();
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
    timing.outcome = `timed out after ${s(ANALYSIS_TIMEOUT_MS)}`;
    timing.totalMs = ANALYSIS_TIMEOUT_MS;
  }
  return timing;

  async function read(): Promise<void> {
    for await (const chunk of res.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data) as {
          type: string;
          progress?: number;
          data?: { images?: { id: number; status: string }[] };
        };
        const at = performance.now() - started;
        if (Number.isNaN(timing.connectedMs)) timing.connectedMs = at;
        const fromJob =
          event.type === 'streaming' ||
          event.type === 'complete' ||
          event.type === 'error' ||
          (event.progress ?? 0) > 2;
        if (fromJob && Number.isNaN(timing.firstJobEventMs)) timing.firstJobEventMs = at;
        if (event.type === 'complete' || event.type === 'error') {
          timing.totalMs = at;
          timing.outcome = event.type;
          timing.images = event.data?.images ?? [];
        }
      }
    }
  }
}

async function completedVideos(url: string, token: string): Promise<{ completed: number; total: number }> {
  let cursor: string | null = null;
  let completed = 0;
  let total = 0;
  do {
    const page: { items: { status: string }[]; next_cursor: string | null } = await call(
      `${url}/api/user/video-generations?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
      'GET',
      token,
    );
    total += page.items.length;
    completed += page.items.filter((v) => v.status === 'completed').length;
    cursor = page.next_cursor;
  } while (cursor);
  return { completed, total };
}

const s = (ms: number) => (Number.isNaN(ms) ? 'none' : `${(ms / 1000).toFixed(2)} s`);
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const line = (label: string, t: AnalysisTiming) =>
  `${label}: first job event ${s(t.firstJobEventMs)} (stream opened ${s(t.connectedMs)}), complete ${s(t.totalMs)} (${t.outcome}, ${t.images.filter((i) => i.status === 'completed').length} candidates)`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-bench-fairness-'));
let server: { url: string; child: ChildProcess } | undefined;
try {
  server = await startServer(dataDir);
  const { url } = server;
  const admin = await call<{ token: string }>(`${url}/api/auth/login-password`, 'POST', undefined, ADMIN);
  const users: string[] = [];
  for (const name of ['bench-user-a', 'bench-user-b']) {
    await call(`${url}/api/users/`, 'POST', admin.token, {
      account: name,
      password: 'pass-123456',
      user_level: 'GENERAL',
    });
    users.push(
      (
        await call<{ token: string }>(`${url}/api/auth/login-password`, 'POST', undefined, {
          account: name,
          password: 'pass-123456',
        })
      ).token,
    );
  }
  const [a, b] = users as [string, string];
  const images = await makeImages();

  // User A's images to make videos from (this also warms the engine up).
  const seed = await analyse(url, a, 'bench-seed', images);
  const sources = seed.images.filter((i) => i.status === 'completed');
  if (sources.length === 0) throw new Error(`user A's analysis made no images (${seed.outcome})`);

  const idle: AnalysisTiming[] = [];
  for (let i = 0; i < REPEAT; i++) {
    idle.push(await analyse(url, b, `bench-idle-${i}`, images));
    console.log(line('idle server          ', idle.at(-1)!));
  }

  const createStarted = performance.now();
  for (let call0 = 0; call0 < VIDEOS / PER_CALL; call0++) {
    await call(`${url}/api/user/video-generations`, 'POST', a, {
      items: Array.from({ length: PER_CALL }, (_, i) => ({
        image_id: sources[(call0 + i) % sources.length]!.id,
        prompt: `Runway walk ${call0 * PER_CALL + i}`,
      })),
    });
  }
  console.log(
    `user A created ${VIDEOS} videos in ${VIDEOS / PER_CALL} calls (${s(performance.now() - createStarted)})`,
  );
  // Let the backlog take its slots, as in the probe.
  await new Promise((r) => setTimeout(r, 2000));

  const busy: AnalysisTiming[] = [];
  for (let i = 0; i < REPEAT; i++) {
    busy.push(await analyse(url, b, `bench-busy-${i}`, images));
    console.log(line(`${VIDEOS}-video backlog    `, busy.at(-1)!));
  }
  const videos = await completedVideos(url, a);
  console.log(`user A's videos finished meanwhile: ${videos.completed} of ${videos.total}`);
  const firstEvent = Math.max(...busy.map((t) => t.firstJobEventMs));
  const idleTotal = median(idle.map((t) => t.totalMs));
  const busyTotal = median(busy.map((t) => t.totalMs));
  const ratio = busyTotal / idleTotal;
  console.log(
    `median complete: idle ${s(idleTotal)}, under the backlog ${s(busyTotal)} (${ratio.toFixed(2)}x); ` +
      `slowest first job event under the backlog ${s(firstEvent)}`,
  );
  console.log(
    `target: first job event within 5 s: ${firstEvent <= 5000 ? 'met' : 'missed'}; ` +
      `complete within 2x idle: ${ratio <= 2 ? 'met' : 'missed'}`,
  );
} finally {
  if (server) await stopServer(server.child);
  rmSync(dataDir, { recursive: true, force: true });
}
