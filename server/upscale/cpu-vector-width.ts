// Which vector kernels onnxruntime runs here: on x86-64 its AVX-512 ones when the CPU reports
// AVX-512F, else its AVX2 ones. The converter's Winograd layers pay only on the AVX2 kernels
// (converter.ts, winograd.ts). Read from /proc/cpuinfo, which shows the CPU's own flags even to a
// process whose CPUID instruction is masked (the benchmarks' `--as-avx2`, scripts/avx2-only.ts):
// such a process says so in MASKED_ENV.
import { readFileSync } from 'node:fs';

/** set to 1 in a process whose CPUID hides AVX-512 from the libraries it loads */
export const MASKED_ENV = 'LOOM_CPUID_WITHOUT_AVX512';

/** Whether onnxruntime runs its AVX2 kernels in this process: an x86-64 CPU with AVX2 and no AVX-512 (seen). */
export function runsAvx2Kernels(
  cpuinfo: string | undefined = readCpuinfo(),
  env: NodeJS.ProcessEnv = process.env,
  arch: string = process.arch,
): boolean {
  if (arch !== 'x64' || cpuinfo === undefined) return false;
  const flags = cpuFlags(cpuinfo);
  return flags.has('avx2') && (!flags.has('avx512f') || env[MASKED_ENV] === '1');
}

/** The first processor's flags in /proc/cpuinfo's text. */
export function cpuFlags(cpuinfo: string): Set<string> {
  return new Set(/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1]?.trim().split(/\s+/) ?? []);
}

/** /proc/cpuinfo's text, or undefined where there is none. */
export function readCpuinfo(): string | undefined {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return undefined;
  }
}
