// The programs the server starts die with it: a server killed with SIGKILL mid-render once left its
// ffmpeg running as an orphan (and then a zombie). A separate node process stands in for the server.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { deathSignalWrapper, execFileTied, spawnTied, tiedCommand } from '../../server/child-processes.js';
import { resolveFfmpegPath } from '../../server/providers/local/ffmpeg-path.js';

/** The state letter of /proc/<pid>/stat (R, S, Z...), or undefined once the pid is gone. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** Dead: gone, or a zombie waiting for whoever inherited it to reap it (it runs nothing). */
const dead = (pid: number) => {
  const state = procState(pid);
  return state === undefined || state === 'Z' || state === 'X';
};

const linux = process.platform === 'linux';
const ffmpeg = resolveFfmpegPath(process.env.FFMPEG_PATH);
const leftovers: number[] = [];

afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/**
 * Waits until the child's pid runs `program` itself: setpriv sets the parent-death signal and then
 * execs the program in place, so before that a parent killed at once leaves nothing to signal it
 * (on a loaded machine setpriv can take a while to get there after the spawn).
 */
async function untilExeced(pid: number, program: string): Promise<void> {
  const comm = () => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  for (let i = 0; i < 200 && comm() !== program; i += 1) await sleep(50);
  expect(comm()).toBe(program);
}

/** Starts a node process that starts `command` through the helper, and answers both pids. */
async function parentWithChild(command: string, args: string[]): Promise<{ parent: number; child: number; exited: Promise<unknown> }> {
  const helper = path.resolve('server/child-processes.ts');
  const script = `
    import { spawnTied } from ${JSON.stringify(helper)};
    const child = spawnTied(${JSON.stringify(command)}, ${JSON.stringify(args)}, { stdio: 'ignore' });
    child.on('spawn', () => process.stdout.write('child ' + child.pid + '\\n'));
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  leftovers.push(parent.pid!);
  const exited = new Promise((resolve) => parent.on('exit', resolve));
  const child = await new Promise<number>((resolve, reject) => {
    let out = '';
    parent.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /child (\d+)\n/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    parent.on('exit', (code) => reject(new Error(`parent exited with ${code}`)));
  });
  leftovers.push(child);
  return { parent: parent.pid!, child, exited };
}

describe('programs the server starts', () => {
  it.skipIf(!linux)('are started through setpriv with a parent-death signal on this machine', () => {
    expect(deathSignalWrapper()).toMatch(/\/setpriv$/);
    expect(tiedCommand('sleep', ['5'])).toEqual({ file: deathSignalWrapper(), args: ['--pdeathsig', 'KILL', '--', 'sleep', '5'] });
  });

  it.skipIf(!linux || !ffmpeg)('die with the server when it is killed with SIGKILL (a real ffmpeg)', async () => {
    // An endless real-time encode: it would run for ever on its own.
    const { parent, child, exited } = await parentWithChild(ffmpeg!, [
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'color=size=16x16:rate=5', '-f', 'null', '-',
    ]);
    expect(dead(child)).toBe(false);
    await untilExeced(child, 'ffmpeg');
    process.kill(parent, 'SIGKILL');
    await exited;
    for (let i = 0; i < 100 && !dead(child); i += 1) await sleep(50);
    expect(dead(child), `ffmpeg ${child} still ${procState(child)} after its parent was killed`).toBe(true);
  });

  it.skipIf(!linux)('die with the server for any program (sleep)', async () => {
    const { parent, child, exited } = await parentWithChild('sleep', ['300']);
    expect(dead(child)).toBe(false);
    await untilExeced(child, 'sleep');
    process.kill(parent, 'SIGKILL');
    await exited;
    for (let i = 0; i < 100 && !dead(child); i += 1) await sleep(50);
    expect(dead(child), `sleep ${child} still ${procState(child)} after its parent was killed`).toBe(true);
  });

  it('fail to start the usual way when the program is missing, and pass output and exit codes through', async () => {
    const missing = spawnTied('/nonexistent/loom-ffmpeg', ['-version'], { stdio: 'ignore' });
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => missing.on('error', resolve));
    expect(error.code).toBe('ENOENT');
    await expect(execFileTied('sh', ['-c', 'echo out; echo err >&2'])).resolves.toEqual({ stdout: 'out\n', stderr: 'err\n' });
    await expect(execFileTied('sh', ['-c', 'exit 3'])).rejects.toMatchObject({ code: 3 });
  });
});
