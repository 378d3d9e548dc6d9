// The upscale service removes, when it starts, the feature cache files that processes killed
// mid-job left behind, and leaves those of running processes alone.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { featureCacheDir } from '../../../server/upscale/feature-cache-dir.js';
import { type HeldHost, startHeldHost } from './held-host.js';

describe('upscale service start', () => {
  const previousTmp = process.env.TMPDIR;
  const base = mkdtempSync(path.join(tmpdir(), 'loom-sweep-'));
  let host: HeldHost | undefined;
  afterAll(async () => {
    await host?.close();
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(base, { recursive: true, force: true });
  });

  it('removes the feature cache files of stopped processes and keeps a live one’s', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const dead = await new Promise<number>((resolve) => child.on('exit', () => resolve(child.pid!)));
    process.env.TMPDIR = base;
    const dir = featureCacheDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, `${dead}-1-0123abcd.bin`), Buffer.alloc(4096));
    writeFileSync(path.join(dir, `${process.ppid}-1-4567cdef.bin`), Buffer.alloc(4096));

    host = await startHeldHost();
    expect(readdirSync(dir)).toEqual([`${process.ppid}-1-4567cdef.bin`]);
  });
});
