// `--as-avx2` for the upscaling benchmarks: runs the benchmark again with every process it starts
// seeing the CPU without AVX-512 (scripts/avx2-only/cpuid-mask.c, preloaded), so an AVX-512
// machine measures the AVX2 kernels an AVX2-only server runs: onnxruntime's, V8's, the reference
// binary's and, through GLIBC_TUNABLES, glibc's. Needs gcc and Linux's cpuid faulting (the
// cpuinfo flag cpuid_fault, which Intel CPUs and many virtual machines have).
// The microarchitecture stays the machine's own: caches, memory and clock are not an AVX2
// server's, so the figures stand beside a real AVX2 run, not in its place.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { MASKED_ENV } from '../server/upscale/cpu-vector-width.js';

const FLAG = '--as-avx2';
/** set in the benchmark's environment once it runs under the mask */
const MARK = 'LOOM_BENCH_AVX2_ONLY';
const source = fileURLToPath(new URL('./avx2-only/cpuid-mask.c', import.meta.url));
const library = path.resolve(path.dirname(source), '../../.cache/avx2-only/cpuid-mask.so');
/** glibc picks its string and memory functions at start, before the preloaded library runs */
const GLIBC_HWCAPS = 'glibc.cpu.hwcaps=-AVX512F,-AVX512DQ,-AVX512BW,-AVX512VL,-AVX512CD,-AVX512ER,-AVX512PF';

/** Whether this process runs under the mask (for the machine line). */
export const runsAsAvx2 = (): boolean => process.env[MARK] === '1';

/** Builds the preload library when it is missing or older than its source; answers its path. */
export function maskLibrary(): string {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  if (!/^flags\s*:.*\bcpuid_fault\b/m.test(cpuinfo))
    throw new Error(`${FLAG}: this machine has no cpuid faulting (no cpuid_fault in /proc/cpuinfo); run on an AVX2 machine instead`);
  const built = (() => {
    try {
      return statSync(library).mtimeMs >= statSync(source).mtimeMs;
    } catch {
      return false;
    }
  })();
  if (!built) {
    mkdirSync(path.dirname(library), { recursive: true });
    execFileSync('gcc', ['-O2', '-Wall', '-Wextra', '-shared', '-fPIC', '-o', library, source, '-ldl'], { stdio: 'inherit' });
  }
  return library;
}

/** The environment that makes a process, and all it starts, see no AVX-512. */
export function avx2OnlyEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const preload = [maskLibrary(), env['LD_PRELOAD']].filter(Boolean).join(' ');
  const tunables = [env['GLIBC_TUNABLES'], GLIBC_HWCAPS].filter(Boolean).join(':');
  // /proc/cpuinfo still lists AVX-512: MASKED_ENV tells the engine which kernels onnxruntime runs
  return { ...env, LD_PRELOAD: preload, GLIBC_TUNABLES: tunables, [MARK]: '1', [MASKED_ENV]: '1' };
}

/**
 * Call first in a benchmark's main: given `--as-avx2` and not yet masked, it runs the same script
 * again under the mask, waits for it and exits with its code; otherwise it returns.
 */
export async function relaunchAsAvx2IfAsked(): Promise<void> {
  if (!process.argv.includes(FLAG) || runsAsAvx2()) return;
  let env: NodeJS.ProcessEnv;
  try {
    env = avx2OnlyEnv();
  } catch (e) {
    // a machine that cannot mask: say why in one line, no stack
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  const code = await new Promise<number>((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  process.exit(code);
}
