// UPSCALE_MEMORY_BUDGET_MB: the engine's default when unset, refused at start out of its range, and
// handed to each engine's thread by the factory that the upscale service, the team worker and the
// workshop all start their engines with. No thread is started: the engine is built on first use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { configuredEngineFactory } from '../../../server/modules/upscale/real-engine.js';
import { ThreadedEngine } from '../../../server/modules/upscale/threaded-engine.js';
import { DEFAULT_MEMORY_BUDGET } from '../../../server/upscale/engine.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-budget-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const MiB = 1024 * 1024;

describe('UPSCALE_MEMORY_BUDGET_MB', () => {
  it('defaults to the engine’s own budget, 1 GiB', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).upscale.memoryBudgetBytes).toBe(DEFAULT_MEMORY_BUDGET);
    expect(DEFAULT_MEMORY_BUDGET).toBe(1024 * MiB);
  });

  it('takes 512 to 65536 MiB and stops the server at start on anything else, naming the setting', () => {
    expect(loadConfig({ DATA_DIR: dataDir, UPSCALE_MEMORY_BUDGET_MB: '512' }).upscale.memoryBudgetBytes).toBe(512 * MiB);
    expect(loadConfig({ DATA_DIR: dataDir, UPSCALE_MEMORY_BUDGET_MB: '65536' }).upscale.memoryBudgetBytes).toBe(65_536 * MiB);
    for (const bad of ['511', '65537', '1.5', 'lots']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, UPSCALE_MEMORY_BUDGET_MB: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dataDir, UPSCALE_MEMORY_BUDGET_MB: bad }), bad).toThrow(/UPSCALE_MEMORY_BUDGET_MB:/);
    }
  });

  it('reaches the options each engine thread is built with', async () => {
    const c = loadConfig({ DATA_DIR: dataDir, UPSCALE_MEMORY_BUDGET_MB: '3072' }).upscale;
    const factory = configuredEngineFactory(c);
    const engine = factory(0);
    try {
      expect(engine).toBeInstanceOf(ThreadedEngine);
      expect((engine as ThreadedEngine).options).toMatchObject({ memoryBudgetBytes: 3072 * MiB, modelsDir: c.modelsDir });
    } finally {
      await engine.close();
    }
  });
});
