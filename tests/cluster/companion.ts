// One companion server process of the cluster, started from this repository
// (`node --import tsx server/main.ts`) in a process group of its own, with its output in a log
// file. It can be killed (kill -9 by default, the whole group) and started again on the same port
// with the same settings, like a replica a supervisor brings back.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { exitReason, freePort, killGroup, spawnCompanion, waitForHttp } from '../support/processes.js';
import { atExit, killNow } from './cleanup.js';

export interface CompanionOptions {
  /** Names its log file and its messages ("replica-1", "worker-2"). */
  name: string;
  /** Every setting beyond process.env: DATA_DIR, DATABASE_URL, ROLE, ... (PORT is added). */
  env: Record<string, string>;
  /** Where its log file goes. */
  logDir: string;
  port?: number;
  /** A path that answers 2xx once it serves; null for a process that serves no HTTP (a worker). */
  readyPath?: string | null;
  readyTimeoutMs?: number;
}

export interface Companion {
  name: string;
  port: number;
  url: string;
  env: Readonly<Record<string, string>>;
  logFile: string;
  pid(): number | undefined;
  running(): boolean;
  /** Starts it again (same port, same settings) and waits until it is ready. */
  start(): Promise<void>;
  /** Signals the whole process group (SIGKILL by default: a crash) and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** A clean stop (SIGTERM), SIGKILL after a few seconds. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Its output so far (the log is appended across restarts). */
  log(): string;
}

export async function startCompanion(o: CompanionOptions): Promise<Companion> {
  const port = o.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env = { HOST: '127.0.0.1', ...o.env, PORT: String(port) };
  const logFile = path.join(o.logDir, `${o.name}.log`);
  let child: ChildProcess | undefined;
  let unregister = () => {};
  const readLog = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };

  const companion: Companion = {
    name: o.name,
    port,
    url,
    env,
    logFile,
    pid: () => child?.pid,
    running: () => child !== undefined && exitReason(child) === null,
    async start() {
      if (companion.running()) throw new Error(`${o.name} is already running`);
      const started = spawnCompanion({ env, detached: true, logFile });
      child = started;
      unregister = atExit(() => killNow(started.pid));
      if (o.readyPath === null) return;
      try {
        await waitForHttp(`${url}${o.readyPath ?? '/config.json'}`, {
          what: o.name,
          exited: () => exitReason(started),
          timeoutMs: o.readyTimeoutMs ?? 90_000,
        });
      } catch (error) {
        await killGroup(started);
        const tail = readLog().split('\n').slice(-20).join('\n');
        throw new Error(`${(error as Error).message}\n--- ${logFile} ---\n${tail}`, { cause: error });
      }
    },
    async kill(signal = 'SIGKILL') {
      if (child) await killGroup(child, signal);
      // Whatever it started (ffmpeg, ...) and left in its group goes too.
      if (signal === 'SIGKILL') killNow(child?.pid);
      unregister();
    },
    async stop() {
      if (child) await killGroup(child, 'SIGTERM', 5_000);
      killNow(child?.pid);
      unregister();
    },
    async restart() {
      await companion.stop();
      await companion.start();
    },
    log: readLog,
  };
  await companion.start();
  return companion;
}
