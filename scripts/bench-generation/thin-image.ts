// A sliver of an image sent as a model image to the analysis call: a 1x40000 PNG (under 1 kB) and
// a 1x4000 one, which a cover resize scaling the 1 px side up first would blow up to gigabytes; the
// server refuses both from the header. This starts its own companion server (a child process on a
// free loopback port, temp data folder, SQLite, the built-in engine), signs in, posts each image
// and prints the HTTP status, the time to the whole answer and the server's peak RSS (VmHWM from
// /proc); then the same for an 8x256 image, the thinnest accepted, whose analysis and candidates
// run in full. Asserts nothing; exits by itself.
//
// A guard stops the server if its RSS passes BENCH_MAX_RSS_MB (default 3072), so a regression
// reports itself instead of taking the machine's memory.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { exitReason, freePort, killGroup, spawnCompanion, waitForHttp } from '../../tests/support/processes.js';

const ADMIN = { account: 'bench-admin', password: 'bench-thin-image-pass' };
const MAX_RSS_MB = Number(process.env.BENCH_MAX_RSS_MB ?? 3072);
/** How long one call may take before it is given up (a 1x40000 image that is not refused runs for minutes). */
const CALL_TIMEOUT_MS = Number(process.env.BENCH_CALL_TIMEOUT_S ?? 120) * 1000;

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const mb = (v: number) => `${v.toFixed(0)} MB`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-bench-thin-'));
  const port = await freePort();
  const child = spawnCompanion({
    quiet: true,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.join(dataDir, 'no-pwa'),
    },
  });
  const pid = child.pid!;
  let guardTripped = false;
  const guard = setInterval(() => {
    try {
      if (memoryOf(pid).rss > MAX_RSS_MB) {
        guardTripped = true;
        child.kill('SIGKILL');
      }
    } catch {
      // the process has gone
    }
  }, 100);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/config.json`, { what: 'the server', exited: () => exitReason(child) });
    const login = await fetch(`${url}/api/auth/login-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const token = ((await login.json()) as { data?: { token?: string } }).data?.token;
    if (!token) throw new Error(`sign-in failed: ${login.status}`);

    const idle = memoryOf(pid);
    console.log(`thin model images, POST /image-api/analyze-images-json-stream (built-in engine, SQLite, loopback)`);
    console.log(`server idle after sign-in: RSS ${mb(idle.rss)}, peak so far ${mb(idle.peak)}`);
    for (const [width, height] of [
      [1, 40_000],
      [1, 4000],
      // The thinnest shape accepted (32:1, 8 px across): analysed and six candidates made in full.
      [8, 256],
    ] as const) {
      const image = await sharp({ create: { width, height, channels: 3, background: '#336699' } }).png().toBuffer();
      const form = new FormData();
      form.append('prompt', 'p');
      form.append('model_images', new Blob([new Uint8Array(image)], { type: 'image/png' }), `thin-${width}x${height}.png`);
      const started = performance.now();
      let status = 'no answer';
      let message = '';
      try {
        const res = await fetch(`${url}/image-api/analyze-images-json-stream`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
          body: form,
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
        status = String(res.status);
        const text = await res.text();
        if (res.headers.get('content-type')?.startsWith('application/json')) {
          message = (JSON.parse(text) as { message?: string }).message ?? '';
        } else {
          const events = text.split('\n\n').filter(Boolean);
          const last = /"type":"(\w+)"/.exec(events.at(-1) ?? '')?.[1] ?? 'none';
          message = `${events.length} events, the last ${last}`;
        }
      } catch (error) {
        status = guardTripped ? `server killed past ${MAX_RSS_MB} MB` : `failed (${error instanceof Error ? error.message : String(error)})`;
      }
      const ms = performance.now() - started;
      const after = child.exitCode === null && !guardTripped ? memoryOf(pid) : undefined;
      console.log(
        `${width}x${height} PNG (${image.length} bytes): HTTP ${status} in ${ms.toFixed(1)} ms` +
          (after ? `; server RSS ${mb(after.rss)}, peak ${mb(after.peak)}` : '') +
          (message ? ` — ${message}` : ''),
      );
      if (guardTripped || child.exitCode !== null) break;
    }
  } finally {
    clearInterval(guard);
    await killGroup(child, 'SIGTERM', 10_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
