// Which kernels onnxruntime runs, as the engine tells it from /proc/cpuinfo (and the benchmarks'
// CPUID mask), and where the engine's Winograd layers pay: there, and on Zen 4's half-width AVX-512.
import { describe, expect, it } from 'vitest';

import { MASKED_ENV, cpuField, runsAvx2Kernels, winogradPays } from '../../../server/upscale/cpu-vector-width.js';

const cpuinfo = (flags: string, vendor = 'AuthenticAMD', family = 25): string =>
  `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: ${family}\nmodel\t\t: 17\nmodel name\t: some CPU\n` +
  `flags\t\t: fpu sse2 ${flags} bmi2\n\nprocessor\t: 1\ncpu family\t: 99\nflags\t\t: fpu sse2 ${flags} bmi2\n`;
const AVX512 = 'avx avx2 fma avx512f avx512bw avx512_vnni';

describe('runsAvx2Kernels', () => {
  it('is true on an x86-64 CPU with AVX2 and no AVX-512', () => {
    expect(runsAvx2Kernels(cpuinfo('avx avx2 fma'), {}, 'x64')).toBe(true);
  });

  it('is false where AVX-512F is listed, unless the process says its CPUID hides it', () => {
    const avx512 = cpuinfo(AVX512);
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

describe('winogradPays', () => {
  it('is true wherever onnxruntime runs its AVX2 kernels', () => {
    expect(winogradPays(cpuinfo('avx avx2 fma', 'GenuineIntel', 6), {}, 'x64')).toBe(true);
    // Zen 3, the AVX2 server: AMD family 25 as Zen 4 is, without AVX-512
    expect(winogradPays(cpuinfo('avx avx2 fma', 'AuthenticAMD', 25), {}, 'x64')).toBe(true);
    expect(winogradPays(cpuinfo(AVX512, 'AuthenticAMD', 26), { [MASKED_ENV]: '1' }, 'x64')).toBe(true);
  });

  it("is true on Zen 4, AMD's family 25 with AVX-512, which runs it on 256-bit halves", () => {
    expect(winogradPays(cpuinfo(AVX512, 'AuthenticAMD', 25), {}, 'x64')).toBe(true);
  });

  it('is false on full-width AVX-512: Zen 5 (family 26) and Intel', () => {
    expect(winogradPays(cpuinfo(AVX512, 'AuthenticAMD', 26), {}, 'x64')).toBe(false);
    // nor is a later, unmeasured family taken for Zen 4
    expect(winogradPays(cpuinfo(AVX512, 'AuthenticAMD', 27), {}, 'x64')).toBe(false);
    expect(winogradPays(cpuinfo(AVX512, 'GenuineIntel', 6), {}, 'x64')).toBe(false);
    // Intel numbers no family 25: the vendor decides, not the number alone
    expect(winogradPays(cpuinfo(AVX512, 'GenuineIntel', 25), {}, 'x64')).toBe(false);
  });

  it('is false without AVX2, on other architectures, and where /proc/cpuinfo cannot be read', () => {
    expect(winogradPays(cpuinfo('avx sse4_2'), {}, 'x64')).toBe(false);
    expect(winogradPays(cpuinfo(AVX512), {}, 'arm64')).toBe(false);
    expect(winogradPays(undefined, {}, 'x64')).toBe(false);
  });
});

describe('cpuField', () => {
  it("reads the first processor's field by its whole name", () => {
    const text = cpuinfo('avx');
    expect(cpuField(text, 'cpu family')).toBe('25');
    expect(cpuField(text, 'model')).toBe('17');
    expect(cpuField(text, 'model name')).toBe('some CPU');
    expect(cpuField(text, 'stepping')).toBeUndefined();
  });
});
