// What one workshop image costs on the built-in engine: Real-CUGAN 2x through the workshop's
// enlargement at its input bound (about 1 MP) and at half of it, on UPSCALE_THREADS threads
// (default: all cores) within UPSCALE_MEMORY_BUDGET_MB (default 1024). Prints wall time and the
// process's CPU seconds for each.
import os from 'node:os';
import sharp from 'sharp';
import { createWorkshopUpscale, WORKSHOP_MAX_INPUT_PIXELS } from '../server/modules/upscale/workshop-upscale.js';
import { DEFAULT_MEMORY_BUDGET } from '../server/upscale/engine.js';
import { defaultModelsDir, ensureModels } from '../server/upscale/model-store.js';

async function photo(width: number, height: number): Promise<Buffer> {
  const px = Buffer.alloc(width * height * 3);
  for (let i = 0; i < px.length; i++) px[i] = (i * 2654435761) >>> 24;
  return sharp(px, { raw: { width, height, channels: 3 } }).blur(1.2).png().toBuffer();
}

// The engine's thread does not hold the process open (a server may exit with it idle): this does.
const keepAlive = setInterval(() => undefined, 1000);
const threads = Number(process.env.UPSCALE_THREADS ?? os.availableParallelism());
const upscaler = createWorkshopUpscale({
  modelsDir: await ensureModels(defaultModelsDir()),
  threads,
  maxPixels: 4_200_000,
  memoryBudgetBytes: process.env.UPSCALE_MEMORY_BUDGET_MB
    ? Number(process.env.UPSCALE_MEMORY_BUDGET_MB) * 1024 * 1024
    : DEFAULT_MEMORY_BUDGET,
});
const side = Math.floor(Math.sqrt(WORKSHOP_MAX_INPUT_PIXELS));
for (const [w, h] of [[Math.floor(side / Math.SQRT2), Math.floor(side / Math.SQRT2)], [side, side]] as const) {
  const input = await photo(w, h);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await upscaler.upscale(input, new AbortController().signal);
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(`${result.model}: ${wall.toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} CPU s, ${threads} threads`);
}
await upscaler.close();
clearInterval(keepAlive);
