import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { avx2OnlyEnv } from '../../../scripts/avx2-only.js';

const flags = readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1]?.trim().split(/\s+/) ?? [];
const hasGcc = spawnSync('gcc', ['--version']).status === 0;

/** prints what the cpuid instruction and libgcc's CPU check answer, then faults when asked */
const PROBE = `
#include <cpuid.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  unsigned a, b, c, d;
  __cpuid_count(7, 0, a, b, c, d);
  printf("%u %u %d\\n", (b >> 16) & 1, (b >> 5) & 1, __builtin_cpu_supports("avx512f") != 0);
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "fault") == 0) return *(volatile int *)0;
  return 0;
}
`;

describe.skipIf(!flags.includes('cpuid_fault') || !hasGcc)('--as-avx2: processes that see no AVX-512', () => {
  let dir: string;
  let probe: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'avx2-only-'));
    probe = path.join(dir, 'probe');
    writeFileSync(`${probe}.c`, PROBE);
    execFileSync('gcc', ['-O1', '-o', probe, `${probe}.c`]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers cpuid without AVX-512 and keeps AVX2 as the CPU has it', () => {
    const plain = execFileSync(probe, { encoding: 'utf8' }).trim().split(' ').map(Number);
    expect(plain).toEqual([flags.includes('avx512f') ? 1 : 0, flags.includes('avx2') ? 1 : 0, flags.includes('avx512f') ? 1 : 0]);
    const masked = execFileSync(probe, { encoding: 'utf8', env: avx2OnlyEnv() }).trim().split(' ').map(Number);
    expect(masked).toEqual([0, plain[1], 0]);
  });

  it('lets a real fault end the process as it would without the mask', () => {
    const run = spawnSync(probe, ['fault'], { encoding: 'utf8', env: avx2OnlyEnv() });
    expect(run.stdout.trim().split(' ')[0]).toBe('0');
    expect(run.signal).toBe('SIGSEGV');
  });

  it("keeps Node's own fault handler: a WebAssembly load out of bounds is still a catchable trap", () => {
    // (module (memory 1) (func (export "f") (result i32) (i32.load (i32.const 131072))))
    const script = `
      const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,96,0,1,127,3,2,1,0,5,3,1,0,1,7,5,1,1,102,0,0,10,11,1,9,0,65,128,128,8,40,2,0,11]);
      try { new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f(); console.log('no trap'); }
      catch (e) { console.log(e instanceof WebAssembly.RuntimeError ? 'trap' : String(e)); }`;
    const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...avx2OnlyEnv(), CPUID_MASK_REPORT: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out.trim()).toBe('trap');
  });
});

describe.skipIf(flags.includes('cpuid_fault'))('--as-avx2 on a machine without cpuid faulting', () => {
  it('stops at once with a one-line reason and exit code 2, and runs nothing', () => {
    const module = new URL('../../../scripts/avx2-only.ts', import.meta.url).href;
    const script = `await (await import(${JSON.stringify(module)})).relaunchAsAvx2IfAsked(); console.log('ran unmasked');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, '--', '--as-avx2'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(
      '--as-avx2: this machine has no cpuid faulting (no cpuid_fault in /proc/cpuinfo); run on an AVX2 machine instead',
    );
  });
});
