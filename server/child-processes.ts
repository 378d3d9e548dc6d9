// Every program the server starts (ffmpeg for the built-in engine's videos, npm and tar for the
// model fetch) is started here, so that none outlives the server. A child is normally left running
// when its parent is killed with SIGKILL (nothing in the parent runs to stop it): an ffmpeg render
// would go on as an orphan and then stay a zombie. On Linux the child is started through util-linux's
// `setpriv --pdeathsig KILL -- <program> ...`: setpriv asks the kernel to SIGKILL the child when
// the thread that started it dies, then execs the program in place (same pid, so kill() and exit
// codes are the program's own). Where setpriv is missing or too old (before util-linux 2.33), the
// program is started directly.
//
// The death signal follows the *thread* that spawned the child: spawn from the main thread (a
// child started from a worker thread dies with that worker).
import {
  execFile,
  spawn,
  spawnSync,
  type ChildProcess,
  type ExecFileOptions,
  type SpawnOptions,
} from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** True when `file` exists and this process may execute it. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The file a command names, as exec would find it; undefined when there is none. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (command.includes('/')) return isExecutable(command) ? command : undefined;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

let wrapper: string | null | undefined;

/** setpriv when it can set a parent-death signal on this machine, else null (checked once). */
export function deathSignalWrapper(): string | null {
  if (wrapper !== undefined) return wrapper;
  wrapper = null;
  if (process.platform !== 'linux') return wrapper;
  const setpriv = findExecutable('setpriv');
  if (!setpriv) return wrapper;
  // An old setpriv refuses the option; a working one runs the program it is given.
  const probe = spawnSync(setpriv, ['--pdeathsig', 'KILL', '--', setpriv, '--version'], { stdio: 'ignore', timeout: 5000 });
  if (probe.status === 0) wrapper = setpriv;
  return wrapper;
}

/**
 * The program and arguments that start `command` tied to this process. A command that cannot be
 * found is left as it is, so starting it fails the usual way (an 'error' event with ENOENT).
 */
export function tiedCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { file: string; args: string[] } {
  const setpriv = deathSignalWrapper();
  if (!setpriv || !findExecutable(command, env)) return { file: command, args: [...args] };
  return { file: setpriv, args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}

/** child_process.spawn, with the child killed when this process dies. */
export function spawnTied(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const tied = tiedCommand(command, args, options.env);
  return spawn(tied.file, tied.args, options);
}

/** A promisified child_process.execFile, with the child killed when this process dies. */
export async function execFileTied(
  command: string,
  args: readonly string[],
  options: ExecFileOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  const tied = tiedCommand(command, args, options.env);
  const { stdout, stderr } = await execFileAsync(tied.file, tied.args, { ...options, encoding: 'utf8' });
  return { stdout, stderr };
}
