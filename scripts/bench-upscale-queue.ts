// `npm run bench:upscale-queue [-- --jobs N --scale S --side PX --as-avx2]`: large jobs back to
// back through the upscale service, as a server runs its queue: the real threaded engine, results
// stored on disk, one process. Each job's own peak resident memory (VmHWM, reset at the job's start
// through /proc/self/clear_refs) against the 1 GiB bound, and what the process holds after it: what
// one job leaves behind is what the next job's peak stands on. It runs in the servers' own kind of
// process (scripts/server-process.mjs: two malloc arenas); `MALLOC_ARENA_MAX=16 npm run
// bench:upscale-queue` measures glibc's default on 2 cores (8 per core) instead.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { relaunchAsAvx2IfAsked } from './avx2-only.js';
import { ownPeakRssBytes } from './bench-child.js';
import { fabricLike } from './bench-images.js';
import { machineLine } from './machine-line.js';
import { realEngineFactory } from '../server/modules/upscale/real-engine.js';
import { UpscaleService } from '../server/modules/upscale/upscale-service.js';
import { createSignedLinks } from '../server/storage/signed-links.js';
import { DEFAULT_MAX_INPUT_PIXELS, DEFAULT_MEMORY_BUDGET } from '../server/upscale/engine.js';
import { defaultModelsDir } from '../server/upscale/model-store.js';

await relaunchAsAvx2IfAsked();

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const jobs = arg('jobs', 3);
const scale = arg('scale', 4);
/** the square fabric's side: 2048 (4 MP, the largest a job may be) by default */
const side = arg('side', 2048);
const MIB = 1024 * 1024;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'loom-bench-queue-'));
const service = new UpscaleService({
  engines: realEngineFactory({
    modelsDir: defaultModelsDir(),
    threads: os.cpus().length,
    concurrency: 1,
    maxPixels: DEFAULT_MAX_INPUT_PIXELS,
    memoryBudgetBytes: DEFAULT_MEMORY_BUDGET,
    winograd: undefined,
  }),
  concurrency: 1,
  maxQueue: jobs,
  maxPixels: DEFAULT_MAX_INPUT_PIXELS,
  maxInflightBytes: 1024 * MIB,
  resultTtlSeconds: 3600,
  dataDir,
  resultLinks: createSignedLinks(new Uint8Array(32), 'upscaleResult', '/upscale-api/results', 3600),
  now: () => new Date(),
});
// The engine's thread is unref'd (a server does not wait for it): this keeps the process up.
const alive = setInterval(() => undefined, 1000);

const mp = ((side * side) / 1e6).toFixed(1);
// the servers' own process setting (scripts/server-process.mjs), which `npm run bench:upscale-queue` runs this in
const arenas = process.env['MALLOC_ARENA_MAX'] ?? "glibc's default";
console.log(
  `bench:upscale-queue, ${jobs} ${side}x${side} (${mp} MP) ${scale}x jobs back to back through the service, malloc arenas: ${arenas} — ${machineLine()}`,
);
const input = await fabricLike(side, side);
const peaks: number[] = [];
try {
  for (let i = 0; i < jobs; i++) {
    writeFileSync('/proc/self/clear_refs', '5'); // VmHWM starts again from the current RSS
    const started = performance.now();
    await service.upscale(
      { filename: 'fabric.png', data: input },
      { modelName: `up${scale}x-conservative`, tileMode: 0, cacheMode: 0, alpha: 1, format: 'png' },
      { signal: new AbortController().signal },
    );
    peaks.push(ownPeakRssBytes());
    console.log(
      `job ${i + 1}: ${((performance.now() - started) / 1000).toFixed(1)} s, peak ${(peaks[i]! / MIB).toFixed(0)} MiB, RSS after ${(process.memoryUsage.rss() / MIB).toFixed(0)} MiB`,
    );
  }
} finally {
  await service.close();
  clearInterval(alive);
  rmSync(dataDir, { recursive: true, force: true });
}
const worst = Math.max(...peaks);
console.log(
  `${worst <= DEFAULT_MEMORY_BUDGET ? 'PASS' : 'FAIL'}  peak RSS <= 1 GiB for each of ${jobs} ${mp} MP ${scale}x jobs back to back through the service: at most ${(worst / MIB).toFixed(0)} MiB`,
);
