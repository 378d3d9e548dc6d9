// Where the feature cache's temporary files live, and the removal of those whose owner is gone.
//
// A large job spills gigabytes there (1.9 GB for a 4 MP 4x job); a process that is killed mid-job
// never deletes its file. So every file sits in one folder of ours, named after the process and
// thread that own it (`<pid>-<threadId>-<random>.bin`): at start the service removes the files of
// processes that no longer run, and when an engine thread stops it removes that thread's files.

import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { processAlive } from '../process-alive.js';

const OWNED = /^(\d+)-(\d+)-[0-9a-f]+\.bin$/;

/** This user's folder for the files (a shared /tmp holds one per user). */
export function featureCacheDir(base = os.tmpdir()): string {
  const user = process.getuid?.() ?? os.userInfo().username;
  return path.join(base, `loom-studio-feature-cache-${user}`);
}

/** Creates the folder, private to this user, and refuses one that another user made. */
export async function ensureFeatureCacheDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
    throw new Error(`${dir} is not a folder of this user; cannot keep the feature cache there`);
  return dir;
}

/** A new file name owned by this process and thread. */
export function spillFileName(): string {
  return `${process.pid}-${threadId}-${randomBytes(6).toString('hex')}.bin`;
}

export interface SweepOptions {
  isAlive?: (pid: number) => boolean;
  /** When this process started: a file of our pid that is older is a previous process's. */
  processStartMs?: number;
}

/**
 * Removes the files no live process owns and returns their names. A file of a running process is
 * kept; one whose pid is ours but which predates this process (a restarted container gives the
 * server the same pid again) is a leftover too.
 */
export async function sweepFeatureCacheDir(dir: string, o: SweepOptions = {}): Promise<string[]> {
  const isAlive = o.isAlive ?? processAlive;
  const startMs = o.processStartMs ?? Date.now() - process.uptime() * 1000;
  const removed: string[] = [];
  for (const name of await listOrNone(dir)) {
    const pid = Number(OWNED.exec(name)?.[1]);
    if (!pid) continue;
    const file = path.join(dir, name);
    let stale = !isAlive(pid);
    if (!stale && pid === process.pid) {
      const st = await stat(file).catch(() => undefined);
      stale = st !== undefined && st.mtimeMs < startMs;
    }
    if (!stale) continue;
    await rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}

/** Removes the files of one thread of this process, once it has stopped. */
export async function removeThreadFiles(dir: string, thread: number): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await listOrNone(dir)) {
    const m = OWNED.exec(name);
    if (Number(m?.[1]) !== process.pid || Number(m?.[2]) !== thread) continue;
    await rm(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

async function listOrNone(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
