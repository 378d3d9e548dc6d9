// The built-in video render's scratch folders, `<tmp>/loom-local-video-<pid>-<random>`: named after
// the process that renders, so a server that starts can remove those whose process is gone (killed
// with SIGKILL mid-render, its clean-up never ran) and leave those of processes still running, as
// the upscale feature cache is swept.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../../process-alive.js';

const PREFIX = 'loom-local-video-';
const OWNED = /^loom-local-video-(\d+)-[A-Za-z0-9]+$/;
/** A folder of an older build names no process: it is a leftover once older than any render runs. */
const UNNAMED_AFTER_MS = 3600_000;

/** A new scratch folder of this process. */
export function newRenderFolder(base = os.tmpdir()): Promise<string> {
  return mkdtemp(path.join(base, `${PREFIX}${process.pid}-`));
}

export interface RenderSweepOptions {
  base?: string;
  isAlive?: (pid: number) => boolean;
  /** When this process started: a folder of our pid that is older is a previous process's. */
  processStartMs?: number;
  now?: number;
}

/** Removes the scratch folders no running render owns; answers their names. */
export async function sweepRenderFolders(o: RenderSweepOptions = {}): Promise<string[]> {
  const base = o.base ?? os.tmpdir();
  const isAlive = o.isAlive ?? processAlive;
  const startMs = o.processStartMs ?? Date.now() - process.uptime() * 1000;
  const now = o.now ?? Date.now();
  const removed: string[] = [];
  for (const name of await readdir(base).catch(() => [] as string[])) {
    if (!name.startsWith(PREFIX)) continue;
    const folder = path.join(base, name);
    const st = await stat(folder).catch(() => undefined);
    if (!st?.isDirectory()) continue;
    const pid = Number(OWNED.exec(name)?.[1]);
    const stale = pid
      ? !isAlive(pid) || (pid === process.pid && st.mtimeMs < startMs)
      : now - st.mtimeMs > UNNAMED_AFTER_MS;
    if (!stale) continue;
    await rm(folder, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
