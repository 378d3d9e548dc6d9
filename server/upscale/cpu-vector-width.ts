// Which vector kernels onnxruntime runs here: on x86-64 its AVX-512 ones when the CPU reports
// AVX-512F, else its AVX2 ones; and whether the converter's Winograd layers pay here (converter.ts,
// winograd.ts): on the AVX2 kernels, and on AVX-512 cores that run it on 256-bit halves. Read from
// /proc/cpuinfo, which shows the CPU's own flags even to a process whose CPUID instruction is masked
// (the benchmarks' `--as-avx2`, scripts/avx2-only.ts): such a process says so in MASKED_ENV.
import { readFileSync } from 'node:fs';

/** set to 1 in a process whose CPUID hides AVX-512 from the libraries it loads */
export const MASKED_ENV = 'LOOM_CPUID_WITHOUT_AVX512';

/**
 * Whether onnxruntime runs its AVX2 kernels in this process: an x86-64 CPU with AVX2 and no AVX-512
 * (seen). `cpuinfo` has no default: undefined means no /proc/cpuinfo, never this machine's.
 */
export function runsAvx2Kernels(
  cpuinfo: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  arch: string = process.arch,
): boolean {
  if (arch !== 'x64' || cpuinfo === undefined) return false;
  const flags = cpuFlags(cpuinfo);
  return flags.has('avx2') && (!flags.has('avx512f') || env[MASKED_ENV] === '1');
}

/**
 * Whether the engine's Winograd layers pay here: where onnxruntime runs its AVX2 kernels, and on
 * AMD's Zen 4 (family 25 with AVX-512), whose cores run each 512-bit instruction as two 256-bit
 * halves, so onnxruntime's AVX-512 direct kernels gain little over its AVX2 ones. A 2 MP 2x job,
 * one a process, 5 rounds interleaved: CPU user 18.55 s/MP with the Winograd layers against 19.68
 * direct, wall 21.7 s against 22.1 (AMD EPYC family 25 model 17, 2 cores, AVX-512 unmasked). Zen 5
 * (family 26) and Intel's AVX-512 cores run it at full width, and there the direct kernels were
 * twice as fast per layer and the Winograd ones lost (winograd.ts's wideConvolutionPlan), in a
 * whole job too with the newer transforms (converter.ts, an Intel Xeon).
 */
export function winogradPays(
  cpuinfo: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  arch: string = process.arch,
): boolean {
  if (runsAvx2Kernels(cpuinfo, env, arch)) return true;
  if (arch !== 'x64' || cpuinfo === undefined) return false;
  return (
    cpuField(cpuinfo, 'vendor_id') === 'AuthenticAMD' &&
    cpuField(cpuinfo, 'cpu family') === '25' &&
    cpuFlags(cpuinfo).has('avx512f')
  );
}

/** One field of the first processor in /proc/cpuinfo's text ("cpu family" -> "25"). */
export function cpuField(cpuinfo: string, name: string): string | undefined {
  return new RegExp(`^${name}\\s*:\\s*(.*?)\\s*$`, 'm').exec(cpuinfo)?.[1];
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
