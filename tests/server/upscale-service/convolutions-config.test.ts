// UPSCALE_CONVOLUTIONS: auto (the engine follows the CPU) when unset, refused at start on anything
// but auto, direct and winograd, and handed to each engine's thread by the factory that the
// upscale service, the team worker and the workshop start their engines with. No thread is
// started: the engine is built on first use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, upscaleWinogradSetting } from '../../../server/config.js';
import { configuredEngineFactory } from '../../../server/modules/upscale/real-engine.js';
import { ThreadedEngine } from '../../../server/modules/upscale/threaded-engine.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-convolutions-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The upscale settings with UPSCALE_CONVOLUTIONS set to `value`, or unset. */
const upscaleConfig = (value?: string) =>
  loadConfig({ DATA_DIR: dataDir, ...(value === undefined ? {} : { UPSCALE_CONVOLUTIONS: value }) }).upscale;
const winogradOf = (value?: string) => upscaleConfig(value).winograd;

async function threadOptions(value: string | undefined) {
  const engine = configuredEngineFactory(upscaleConfig(value))(0);
  try {
    expect(engine).toBeInstanceOf(ThreadedEngine);
    return { ...(engine as ThreadedEngine).options };
  } finally {
    await engine.close();
  }
}

describe('UPSCALE_CONVOLUTIONS', () => {
  it('leaves the choice to the engine when unset, empty or auto', () => {
    expect(winogradOf()).toBeUndefined();
    expect(winogradOf('')).toBeUndefined();
    expect(winogradOf('auto')).toBeUndefined();
  });

  it('forces Winograd or direct convolutions', () => {
    expect(winogradOf('winograd')).toBe(true);
    expect(winogradOf('direct')).toBe(false);
  });

  it('stops the server at start on any other value, naming the setting', () => {
    for (const bad of ['Winograd', 'fast', '1', 'direct,winograd']) {
      expect(() => winogradOf(bad), bad).toThrow(ConfigError);
      expect(() => winogradOf(bad), bad).toThrow(/UPSCALE_CONVOLUTIONS:/);
    }
  });

  it('reads the same way alone, as the benchmarks read it', () => {
    expect(upscaleWinogradSetting({})).toBeUndefined();
    expect(upscaleWinogradSetting({ UPSCALE_CONVOLUTIONS: 'auto' })).toBeUndefined();
    expect(upscaleWinogradSetting({ UPSCALE_CONVOLUTIONS: 'winograd' })).toBe(true);
    expect(upscaleWinogradSetting({ UPSCALE_CONVOLUTIONS: 'direct' })).toBe(false);
    expect(() => upscaleWinogradSetting({ UPSCALE_CONVOLUTIONS: 'fast' })).toThrow(/^UPSCALE_CONVOLUTIONS: /);
  });

  it('reaches the options each engine thread is built with, and auto adds none', async () => {
    expect(await threadOptions('winograd')).toMatchObject({ winograd: true });
    expect(await threadOptions('direct')).toMatchObject({ winograd: false });
    expect(await threadOptions(undefined)).not.toHaveProperty('winograd');
  });
});
