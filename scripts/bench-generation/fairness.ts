// Fairness of the job queue (issue 22, finding 3): one user's 100-video backlog against another
// user's analysis. Starts its own companion server (built-in engine, SQLite, a temporary data
// folder, a free loopback port), makes two GENERAL users, times user B's analysis on the idle
// server, lets user A create 100 videos (10 calls of 10), then times the same analysis by B again.
// Prints the figures; asserts nothing; stops the server and removes its folder when done.
// Target: under the backlog, B's first event from its job within 5 s, and the whole analysis
// within twice its idle time. Each analysis is timed BENCH_REPEAT times (default 3); the medians
// are compared (the machine may be shared).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { designImages } from '../bench-images.js';
import { analyse, call, type AnalysisTiming } from '../bench-calls.js';
import { startLoopbackCompanion, type LoopbackCompanion } from '../../tests/support/processes.js';

const ADMIN = { account: 'bench-admin', password: 'bench-password' };
const VIDEOS = 100;
const PER_CALL = 10;
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));

function startServer(dataDir: string): Promise<LoopbackCompanion> {
  return startLoopbackCompanion({
    // Only what the server needs: no provider keys, so the built-in engine does every job.
    inheritEnv: false,
    quiet: true,
    env: {
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
  });
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
let server: LoopbackCompanion | undefined;
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
  const images = await designImages(512);

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
  if (server) await server.stop(20_000);
  rmSync(dataDir, { recursive: true, force: true });
}
