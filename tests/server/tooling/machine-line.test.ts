import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { cpuIdentity, machineLine } from '../../../scripts/machine-line.js';

// The first processor's lines as Linux prints them, from a Zen 3 and a Zen 5 virtual machine
// (both named only "AMD EPYC") and an Intel one.
const processor = (family: number, model: number, name: string): string =>
  [
    'processor\t: 0',
    `vendor_id\t: ${name.startsWith('AMD') ? 'AuthenticAMD' : 'GenuineIntel'}`,
    `cpu family\t: ${family}`,
    `model\t\t: ${model}`,
    `model name\t: ${name}`,
    'stepping\t: 1',
    'flags\t\t: fpu avx avx2',
    '',
  ].join('\n');

describe('the CPU line of the benchmarks', () => {
  it('tells apart machines whose model name is the same, by their family and model', () => {
    expect(cpuIdentity(processor(25, 1, 'AMD EPYC'))).toBe('family 25, model 1');
    expect(cpuIdentity(processor(26, 2, 'AMD EPYC'))).toBe('family 26, model 2');
    expect(cpuIdentity(processor(6, 143, 'Intel Xeon Processor (SapphireRapids)'))).toBe('family 6, model 143');
  });

  it('reads the first processor of many, and gives nothing where the fields are missing', () => {
    expect(cpuIdentity(processor(26, 2, 'AMD EPYC') + processor(26, 2, 'AMD EPYC'))).toBe('family 26, model 2');
    expect(cpuIdentity('processor\t: 0\nmodel name\t: some CPU\n')).toBeUndefined();
    expect(cpuIdentity('')).toBeUndefined();
  });

  it("prints this machine's family and model beside its name and core count", () => {
    const identity = cpuIdentity(readFileSync('/proc/cpuinfo', 'utf8'));
    const line = machineLine();
    expect(line).toMatch(/^CPU: .+, \d+ cores \(AVX2 (yes|no), /);
    if (identity) expect(line).toContain(`(${identity}), `);
  });

  describe('the engine\'s convolutions', () => {
    afterEach(() => vi.unstubAllEnvs());

    it('are the form UPSCALE_CONVOLUTIONS forces, and say so', () => {
      vi.stubEnv('UPSCALE_CONVOLUTIONS', 'direct');
      expect(machineLine()).toContain("the engine's convolutions: all direct (UPSCALE_CONVOLUTIONS);");
      vi.stubEnv('UPSCALE_CONVOLUTIONS', 'winograd');
      expect(machineLine()).toContain(
        "the engine's convolutions: Winograd F(4,3) on the wide layers at 2x and 3x (UPSCALE_CONVOLUTIONS);",
      );
    });

    it("are the engine's own choice for this CPU when it is auto", () => {
      vi.stubEnv('UPSCALE_CONVOLUTIONS', 'auto');
      expect(machineLine()).toMatch(/the engine's convolutions: (all direct|Winograd F\(4,3\) on the wide layers at 2x and 3x); /);
    });
  });
});
