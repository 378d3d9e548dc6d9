// Runs one configuration of a benchmark in a child process of its own (so its peak memory and
// CPU time are its own): the script starts itself with `--child <job as JSON>`, and the child
// prints its result as JSON on stdout.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The job a child was started with, or undefined in the parent. */
export function childJob<T>(): T | undefined {
  const at = process.argv.indexOf('--child');
  return at > 0 ? (JSON.parse(process.argv[at + 1]!) as T) : undefined;
}

/** Starts the script at `scriptUrl` (its import.meta.url) as a child on `job`, and answers what it printed. */
export function runChild<J, R>(scriptUrl: string, job: J): Promise<R> {
  const self = fileURLToPath(scriptUrl);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', self, '--child', JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as R) : reject(new Error(`child exited ${code}`))));
  });
}

/**
 * This process's own peak resident memory, in bytes. Linux's getrusage maxRSS is not that in a
 * child: it carries over the parent's resident memory through fork and exec (a 43 MB child of a
 * 1.2 GB process read 1205 MiB), so a benchmark whose parent had grown reported its parent's size.
 * VmHWM is the high-water mark of the process's own address space; maxRSS where there is none.
 */
export function ownPeakRssBytes(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux: no /proc
  }
  return process.resourceUsage().maxRSS * 1024;
}
