// Last-resort teardown of the cluster suite's parts: whatever a normal stop() did not take down
// (a test that threw before its afterAll, a runner stopped by a timeout) is killed by process id
// and its temporary folder removed when this process exits. Only synchronous work runs at exit.
import { rmSync } from 'node:fs';

const pending = new Map<number, () => void>();
let next = 0;
let hooked = false;

function runAll(): void {
  for (const [id, fn] of [...pending].reverse()) {
    pending.delete(id);
    try {
      fn();
    } catch {
      // best effort: the next one still runs
    }
  }
}

/** Registers a synchronous cleanup; call the returned function once the part stopped normally. */
export function atExit(fn: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.once('exit', runAll);
    // Not SIGINT: a test runner handles Ctrl-C itself (it stops its workers, which then exit).
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        runAll();
        process.kill(process.pid, signal);
      });
    }
  }
  next += 1;
  const id = next;
  pending.set(id, fn);
  return () => void pending.delete(id);
}

/** Kills a process group (or a single process) by id, ignoring one that is already gone. */
export function killNow(pid: number | undefined, group = true): void {
  if (pid === undefined) return;
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
