// Which kernels onnxruntime runs, as the engine tells it from /proc/cpuinfo (and the benchmarks'
// CPUID mask): the engine's Winograd layers follow it.
import { describe, expect, it } from 'vitest';

import { MASKED_ENV, runsAvx2Kernels } from '../../../server/upscale/cpu-vector-width.js';

const cpuinfo = (flags: string): string =>
  `processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse2 ${flags} bmi2\n\nprocessor\t: 1\nflags\t\t: fpu sse2 ${flags} bmi2\n`;

describe('runsAvx2Kernels', () => {
  it('is true on an x86-64 CPU with AVX2 and no AVX-512', () => {
    expect(runsAvx2Kernels(cpuinfo('avx avx2 fma'), {}, 'x64')).toBe(true);
  });

  it('is false where AVX-512F is listed, unless the process says its CPUID hides it', () => {
    const avx512 = cpuinfo('avx avx2 fma avx512f avx512bw avx512_vnni');
    expect(runsAvx2Kernels(avx512, {}, 'x64')).toBe(false);
    expect(runsAvx2Kernels(avx512, { [MASKED_ENV]: '1' }, 'x64')).toBe(true);
    expect(runsAvx2Kernels(avx512, { [MASKED_ENV]: '0' }, 'x64')).toBe(false);
  });

  it('is false without AVX2, on other architectures, and where /proc/cpuinfo cannot be read', () => {
    expect(runsAvx2Kernels(cpuinfo('avx sse4_2'), {}, 'x64')).toBe(false);
    expect(runsAvx2Kernels(cpuinfo('avx avx2 fma'), {}, 'arm64')).toBe(false);
    expect(runsAvx2Kernels(undefined, {}, 'x64')).toBe(false);
    // a flag whose name only starts with avx2 is not AVX2
    expect(runsAvx2Kernels(cpuinfo('avx avx2_fake'), {}, 'x64')).toBe(false);
  });
});
