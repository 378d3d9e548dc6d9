// A server that starts removes the built-in render's scratch folders that processes killed
// mid-render left in the temporary folder, and leaves a running process's alone.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGenerationApp, type GenerationTestApp } from './helpers/generation-app.js';

describe('render folder sweep at start', () => {
  const previousTmp = process.env.TMPDIR;
  const base = mkdtempSync(path.join(tmpdir(), 'loom-render-sweep-'));
  let t: GenerationTestApp | undefined;
  afterAll(async () => {
    await t?.close();
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(base, { recursive: true, force: true });
  });

  it('removes the folders of stopped processes and keeps a live one’s', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const dead = await new Promise<number>((resolve) => child.on('exit', () => resolve(child.pid!)));
    const folder = (name: string) => {
      mkdirSync(path.join(base, name));
      writeFileSync(path.join(base, name, 'first.rgb'), Buffer.alloc(4096));
      return path.join(base, name);
    };
    const killed = folder(`loom-local-video-${dead}-Ab12Cd`);
    const live = folder(`loom-local-video-${process.ppid}-Ef34Gh`);
    process.env.TMPDIR = base;
    t = await createGenerationApp('sqlite', undefined);
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
