import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { REPEAT_WINDOW_MS } from '../../server/close-on-signals.js';

const MODULE = pathToFileURL(path.resolve('server/close-on-signals.ts')).href;

/** a process whose app takes CLOSE_MS to close, as a server handing its jobs back does */
const entry = (closeMs: number): string => `
import { closeOnSignals } from '${MODULE}';
closeOnSignals({
  log: { info: () => undefined, error: () => undefined },
  close: () => new Promise((resolve) => setTimeout(() => { console.log('closed'); resolve(undefined); }, ${closeMs})),
} as never);
console.log('ready');
setInterval(() => undefined, 1000);
`;

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

/** Starts an entry, sends it `signals` at the given ms after it is ready, and waits for it to end. */
function stopWith(file: string, signals: Array<[NodeJS.Signals, number]>): Promise<Ended> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const first = !out.includes('ready');
    out += chunk.toString();
    if (first && out.includes('ready'))
      for (const [signal, at] of signals) setTimeout(() => child.kill(signal), at);
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out })));
}

describe('closeOnSignals: how a server process stops', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'close-on-signals-'));
    writeFileSync(path.join(dir, 'quick.ts'), entry(400));
    writeFileSync(path.join(dir, 'slow.ts'), entry(10_000));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes a stop delivered twice at once as one stop, and closes the app before it exits', async () => {
    const ended = await stopWith(path.join(dir, 'quick.ts'), [
      ['SIGINT', 0],
      ['SIGINT', 20],
      ['SIGTERM', 40],
    ]);
    expect(ended.out).toContain('closed');
    expect(ended).toMatchObject({ code: 0, signal: null });
  });

  it('ends at once when asked again after the repeat window, without waiting for a slow close', async () => {
    const started = performance.now();
    const ended = await stopWith(path.join(dir, 'slow.ts'), [
      ['SIGINT', 0],
      ['SIGINT', REPEAT_WINDOW_MS + 500],
    ]);
    expect(ended.signal).toBe('SIGINT');
    expect(ended.out).not.toContain('closed');
    expect(performance.now() - started).toBeLessThan(9000);
  });
});
