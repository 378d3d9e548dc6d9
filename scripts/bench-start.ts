// `npm run bench:start [-- rounds]`: how long a team process takes from `node` to ready, and its
// resident memory once ready, as `npm run serve` starts it (TypeScript loaded through tsx at run
// time). ROLE=api (ready: it prints its address) and ROLE=worker (ready: it says it runs jobs), on
// the machine's PostgreSQL (TEST_DATABASE_URL), each in a fresh schema. tsx keeps compiled files in
// a cache folder: the first round of each role runs with that cache emptied (a fresh host or a new
// build), the others with it warm (a restart).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const rounds = Number(process.argv[2] ?? 4);
const tsxCache = path.join(os.tmpdir(), `tsx-${os.userInfo().uid}`);

interface Figure {
  ms: number;
  rssMiB: number;
  peakMiB: number;
}

function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

async function startOnce(role: 'api' | 'worker', schema: string): Promise<Figure> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loom-bench-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      TEAM_MODE: 'true',
      ROLE: role,
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      PGBOSS_SCHEMA: `${schema}_boss`,
      JWT_SECRET: 'bench-start-secret-of-at-least-32-characters',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const ms = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/is running/.test(out)) resolve(performance.now() - started);
      });
      child.once('exit', (code) => reject(new Error(`${role} exited with ${code} before it was ready:\n${out}`)));
    });
    // Let the start's garbage settle and the first heartbeat and queue polls run.
    await new Promise((r) => setTimeout(r, 3000));
    return { ms, rssMiB: statusMiB(child.pid!, 'VmRSS'), peakMiB: statusMiB(child.pid!, 'VmHWM') };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const client = new pg.Client({ connectionString: DATABASE_URL });
await client.connect();
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
process.stdout.write(`Node.js ${process.version}, ${cpu}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}\n`);
for (const role of ['api', 'worker'] as const) {
  const figures: { cold: boolean; f: Figure }[] = [];
  for (let i = 0; i < rounds; i++) {
    const cold = i === 0;
    if (cold) rmSync(tsxCache, { recursive: true, force: true });
    const schema = `bench_start_${process.pid}_${role}_${i}`;
    try {
      figures.push({ cold, f: await startOnce(role, schema) });
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS "${schema}_boss" CASCADE`);
    }
  }
  for (const { cold, f } of figures)
    process.stdout.write(
      `ROLE=${role.padEnd(6)} ${cold ? 'cold tsx cache' : 'warm tsx cache'}  ready in ${f.ms.toFixed(0).padStart(5)} ms  RSS ${f.rssMiB.toFixed(0)} MiB (peak ${f.peakMiB.toFixed(0)} MiB)\n`,
    );
}
await client.end();
