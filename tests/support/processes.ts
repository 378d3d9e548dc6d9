// Process helpers shared by the browser suite (tests/e2e), the cluster suite (tests/cluster) and
// scripts: free ports, the companion server started from this repository, waiting for an HTTP
// answer, and stopping a process with everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: companion servers start from here, whatever the caller's cwd. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A port nobody listens on right now (other suites and colleagues run servers on this machine too). */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

export interface CompanionSpawnOptions {
  /** The server's whole environment beyond process.env (PORT, DATA_DIR, ...). */
  env: Record<string, string>;
  /**
   * Its own process group, so killGroup() reaches whatever it started too, and a Ctrl-C meant for
   * the test runner does not reach it first (the caller stops it).
   */
  detached?: boolean;
  /** A file for its stdout and stderr; without it they go to the caller's. */
  logFile?: string;
  /** Without a log file: its stdout is dropped (a benchmark's own figures stay readable); stderr still shows. */
  quiet?: boolean;
  /**
   * false: of process.env only PATH and HOME are passed on, so no provider key or setting of the
   * caller's shell reaches it (the built-in engine does every job). Default true.
   */
  inheritEnv?: boolean;
  /** Another checkout to run the server of (comparing with an older commit); default this repository. */
  root?: string;
}

/** Starts `node --import tsx server/main.ts` from the repository; does not wait for it to listen. */
export function spawnCompanion(o: CompanionSpawnOptions): ChildProcess {
  const log = o.logFile ? openSync(o.logFile, 'a') : undefined;
  const inherited =
    o.inheritEnv === false
      ? Object.fromEntries(['PATH', 'HOME'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]))
      : process.env;
  try {
    return spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: o.root ?? REPO_ROOT,
      env: { ...inherited, ...o.env },
      stdio: log === undefined ? ['ignore', o.quiet ? 'ignore' : 'inherit', 'inherit'] : ['ignore', log, log],
      detached: o.detached ?? false,
    });
  } finally {
    // The child holds its own copy of the descriptor.
    if (log !== undefined) closeSync(log);
  }
}

/**
 * Waits until `url` answers 2xx. `exited` says why waiting is pointless (the process died), and
 * is checked between tries.
 */
export async function waitForHttp(
  url: string,
  o: { timeoutMs?: number; exited?: () => string | null; what?: string } = {},
): Promise<void> {
  const timeoutMs = o.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const gone = o.exited?.();
    if (gone) throw new Error(`${o.what ?? url} ${gone}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${o.what ?? url} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface LoopbackCompanion {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM, SIGKILL after `graceMs` (default 10 s); resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a companion server on a free loopback port (PORT and HOST are set here) and waits until
 * it serves /config.json; a server that exits meanwhile fails the start with its reason.
 */
export async function startLoopbackCompanion(o: CompanionSpawnOptions & { readyTimeoutMs?: number }): Promise<LoopbackCompanion> {
  const port = await freePort();
  const child = spawnCompanion({ ...o, env: { ...o.env, PORT: String(port), HOST: '127.0.0.1' } });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/config.json`, { what: 'the server', exited: () => exitReason(child), timeoutMs: o.readyTimeoutMs });
  } catch (error) {
    await killGroup(child);
    throw error;
  }
  return { url, port, child, stop: (graceMs = 10_000) => killGroup(child, 'SIGTERM', graceMs) };
}

/** Why a child is no longer running, or null while it runs. */
export function exitReason(child: ChildProcess): string | null {
  if (child.exitCode !== null) return `exited with ${child.exitCode}`;
  if (child.signalCode !== null) return `was killed by ${child.signalCode}`;
  return null;
}

/**
 * Sends `signal` to the child's process group (a detached child leads its own) and waits until
 * the child is gone. Without a group, to the child alone.
 */
export async function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL', timeoutMs = 15_000): Promise<void> {
  if (exitReason(child) !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
  const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), timeoutMs).unref());
  if ((await Promise.race([exited, timer])) === 'late') {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
  }
}
