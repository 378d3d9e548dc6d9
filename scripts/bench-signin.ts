// `npm run bench:signin`: password sign-in throughput on loopback against a real server with the
// production argon2id cost, plus the cost of one verification. Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { ensureAdmin } from '../server/modules/users/ensure-admin.js';

const durationMs = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-bench-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ADMIN_ACCOUNT: 'bench-admin',
  ADMIN_PASSWORD: 'bench-password',
  // Throttling would stop a benchmark from one address; the cost under test is argon2 + tokens.
  LOGIN_MAX_ATTEMPTS: '10000',
  STATIC_DIR: path.join(dataDir, 'none'),
});
const app = await buildApp(config);
await ensureAdmin(config, app.services);
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const hash = await app.services.hasher.hash('bench-password');
const t0 = performance.now();
for (let i = 0; i < 10; i += 1) await app.services.hasher.verify(hash, 'bench-password');
const verifyMs = (performance.now() - t0) / 10;

const latencies: number[] = [];
let failures = 0;
const end = Date.now() + durationMs;
async function worker(): Promise<void> {
  while (Date.now() < end) {
    const s = performance.now();
    const res = await fetch(`${address}/api/auth/login-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'bench-admin', password: 'bench-password' }),
    });
    await res.arrayBuffer();
    if (res.status === 200) latencies.push(performance.now() - s);
    else failures += 1;
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]?.toFixed(1);

console.log(`argon2id cost: memory ${config.argon2.memoryCost} KiB, time ${config.argon2.timeCost}, parallelism 1`);
console.log(`one verification: ${verifyMs.toFixed(1)} ms`);
console.log(
  `sign-in (POST /api/auth/login-password, SQLite, loopback, ${concurrency} in flight, ${elapsed.toFixed(1)} s): ` +
    `${(latencies.length / elapsed).toFixed(1)} requests/s, p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, ${failures} failed`,
);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
