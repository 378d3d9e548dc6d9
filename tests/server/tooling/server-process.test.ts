import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LAUNCHER = path.resolve('scripts/server-process.mjs');

/** an entry that reports glibc's setting and its arguments (once it can take SIGTERM), then waits for a signal or exits with a given code */
const ENTRY = `
const [mode, code] = process.argv.slice(2);
process.on('SIGTERM', () => { console.log('stopping'); process.exit(0); });
console.log(JSON.stringify({ arenas: process.env.MALLOC_ARENA_MAX ?? null, mode }));
if (mode === 'exit') process.exit(Number(code));
setInterval(() => undefined, 1000);
`;

describe('scripts/server-process.mjs: the process the servers run in', () => {
  let dir: string;
  let entry: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'server-process-'));
    entry = path.join(dir, 'entry.ts');
    writeFileSync(entry, ENTRY);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (env: NodeJS.ProcessEnv, ...args: string[]) =>
    spawnSync(process.execPath, [LAUNCHER, entry, ...args], { encoding: 'utf8', env, timeout: 20_000 });

  it.skipIf(process.platform !== 'linux')('holds glibc to two malloc arenas and passes on the exit code', () => {
    const { MALLOC_ARENA_MAX: _unset, ...env } = process.env;
    const res = run(env, 'exit', '3');
    expect(JSON.parse(res.stdout.trim())).toEqual({ arenas: '2', mode: 'exit' });
    expect(res.status).toBe(3);
  });

  it("keeps an operator's own setting", () => {
    const res = run({ ...process.env, MALLOC_ARENA_MAX: '8' }, 'exit', '0');
    expect(JSON.parse(res.stdout.trim())).toEqual({ arenas: '8', mode: 'exit' });
    expect(res.status).toBe(0);
  });

  it('passes a stop signal on, so the server shuts down gracefully', async () => {
    const child = spawn(process.execPath, [LAUNCHER, entry, 'wait'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"mode":"wait"') && !out.includes('stopping')) child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(out).toContain('stopping');
    expect(code).toBe(0);
  });

  it('says how to use it when no entry is given', () => {
    const res = spawnSync(process.execPath, [LAUNCHER], { encoding: 'utf8' });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('usage: node scripts/server-process.mjs');
  });
});
