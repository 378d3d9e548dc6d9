// The machine a benchmark measured, printed beside its figures: the same code is 1.2–1.9x apart
// between an AVX-512 machine and an AVX2 one, so a figure without its CPU line means little.
import os from 'node:os';

import { runsAsAvx2 } from './avx2-only.js';
import { upscaleWinogradSetting } from '../server/config.js';
import { cpuField, cpuFlags, readCpuinfo, winogradPays } from '../server/upscale/cpu-vector-width.js';

/** The vector extensions that decide the convolution kernels' speed, from /proc/cpuinfo's flags. */
function vectorExtensions(cpuinfo: string | undefined): string {
  if (cpuinfo === undefined) return 'vector extensions unknown';
  const flags = cpuFlags(cpuinfo);
  const has = (flag: string): string => (flags.has(flag) ? 'yes' : 'no');
  if (runsAsAvx2())
    return `AVX2 ${has('avx2')}, FMA ${has('fma')}, AVX-512 ${has('avx512f')} but masked by --as-avx2: this run's processes see AVX2 and FMA only`;
  return `AVX2 ${has('avx2')}, FMA ${has('fma')}, AVX-512 ${has('avx512f')}, VNNI ${flags.has('avx512_vnni') || flags.has('avx_vnni') ? 'yes' : 'no'}`;
}

/**
 * "family 26, model 2" from /proc/cpuinfo's text: a virtual machine's model name is often only the
 * vendor's line ("AMD EPYC" for Zen 3 and Zen 5 alike, family 25 and 26), and the two are far
 * apart per core, so figures from machines that print the same name are told apart by these.
 */
export function cpuIdentity(cpuinfo: string): string | undefined {
  const family = cpuField(cpuinfo, 'cpu family');
  const model = cpuField(cpuinfo, 'model');
  const numeric = (v: string | undefined): v is string => v !== undefined && /^\d+$/.test(v);
  return numeric(family) && numeric(model) ? `family ${family}, model ${model}` : undefined;
}

/**
 * "CPU: AMD EPYC (family 25, model 1), 2 cores (AVX2 yes, FMA yes, AVX-512 no, VNNI no); the
 * engine's convolutions: Winograd F(4,3) on the wide layers at 2x and 3x; load average 0.4 / 0.3 / 0.2"
 */
export function machineLine(): string {
  const cpus = os.cpus();
  const cpuinfo = readCpuinfo();
  const identity = cpuinfo === undefined ? undefined : cpuIdentity(cpuinfo);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  // The engine's own choice for this CPU, unless UPSCALE_CONVOLUTIONS forces one.
  const forced = upscaleWinogradSetting();
  const form = (forced ?? winogradPays(cpuinfo)) ? 'Winograd F(4,3) on the wide layers at 2x and 3x' : 'all direct';
  const convolutions = forced === undefined ? form : `${form} (UPSCALE_CONVOLUTIONS)`;
  return `CPU: ${cpus[0]?.model.trim() ?? 'unknown'}${identity ? ` (${identity})` : ''}, ${cpus.length} cores (${vectorExtensions(cpuinfo)}); the engine's convolutions: ${convolutions}; load average ${load} (1/5/15 min)`;
}
