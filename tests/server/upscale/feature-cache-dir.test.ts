// The feature cache's temporary files: in our named folder, named after their process and thread,
// and removed when their owner is gone — at the next start after a kill -9, or when an engine
// thread stops.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  ensureFeatureCacheDir,
  featureCacheDir,
  removeThreadFiles,
  sweepFeatureCacheDir,
} from '../../../server/upscale/feature-cache-dir.js';
import { FeatureCache } from '../../../server/upscale/feature-cache.js';

let base: string;
let dir: string;

beforeEach(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'loom-fc-test-'));
  dir = await ensureFeatureCacheDir(featureCacheDir(base));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  return new Promise((resolve) => child.on('exit', () => resolve(child.pid!)));
}

const file = (name: string) => {
  writeFileSync(path.join(dir, name), 'x');
  return name;
};

describe('feature cache folder', () => {
  it('is a private folder of this user, named for the product', () => {
    expect(path.basename(dir)).toMatch(/^loom-studio-feature-cache-/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('puts a spilled cache in a file named after this process and thread, removed on close', async () => {
    const cache = new FeatureCache(0, false, dir);
    await cache.put('a', Float32Array.of(1, 2, 3), [3]);
    const name = path.basename(cache.path!);
    expect(name).toMatch(new RegExp(`^${process.pid}-${threadId}-[0-9a-f]+\\.bin$`));
    expect(readdirSync(dir)).toEqual([name]);
    await cache.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('at start removes the files of processes that are gone and keeps those of live ones', async () => {
    const dead = file(`${await deadPid()}-1-aa.bin`);
    const otherLive = file(`${process.ppid}-3-bb.bin`);
    const ours = file(`${process.pid}-${threadId}-cc.bin`);
    // Our pid, older than this process: a previous process that had the same pid (a container).
    const previousLife = file(`${process.pid}-1-dd.bin`);
    const past = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    utimesSync(path.join(dir, previousLife), past, past);
    const notOurs = file('notes.txt');

    const removed = await sweepFeatureCacheDir(dir);
    expect(removed.sort()).toEqual([dead, previousLife].sort());
    expect(readdirSync(dir).sort()).toEqual([otherLive, ours, notOurs].sort());
    // No folder yet: nothing to do.
    expect(await sweepFeatureCacheDir(path.join(base, 'none'))).toEqual([]);
  });

  it('finds the file of a process killed mid-job (kill -9) and removes it at the next start', async () => {
    // A process that spills a cache to the folder and is killed before it can close it.
    const script = `
      import { FeatureCache } from ${JSON.stringify(path.resolve('server/upscale/feature-cache.ts'))};
      const cache = new FeatureCache(0, false, ${JSON.stringify(dir)});
      await cache.put('a', new Float32Array(1 << 20), [1 << 20]);
      process.stdout.write('spilled\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('spilled') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited with ${code}`)));
    });
    const [name] = readdirSync(dir);
    expect(name).toMatch(new RegExp(`^${child.pid}-\\d+-[0-9a-f]+\\.bin$`));
    // While it runs, its file is kept.
    expect(await sweepFeatureCacheDir(dir)).toEqual([]);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    expect(existsSync(path.join(dir, name!))).toBe(true);
    expect(await sweepFeatureCacheDir(dir)).toEqual([name]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('removes the files of a stopped engine thread of this process, and only those', async () => {
    const stopped = file(`${process.pid}-7-aa.bin`);
    const running = file(`${process.pid}-8-bb.bin`);
    const otherProcess = file(`${process.ppid}-7-cc.bin`);
    expect(await removeThreadFiles(dir, 7)).toEqual([stopped]);
    expect(readdirSync(dir).sort()).toEqual([running, otherProcess].sort());
  });
});
