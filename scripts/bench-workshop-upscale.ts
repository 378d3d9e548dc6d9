// What one workshop image costs on the built-in engine: Real-CUGAN 2x through the workshop's
// enlargement at its input bound (about 1 MP) and at half of it, with the server's own upscale
// settings read from the environment as the server reads them (UPSCALE_THREADS, default all
// cores; UPSCALE_MEMORY_BUDGET_MB, default 1024; UPSCALE_MAX_PIXELS). Prints wall time and the
// process's CPU seconds for each.
import sharp from 'sharp';
import { loadConfig } from '../server/config.js';
import { createWorkshopUpscale, WORKSHOP_MAX_INPUT_PIXELS } from '../server/modules/upscale/workshop-upscale.js';
import { ensureModels } from '../server/upscale/model-store.js';

async function photo(width: number, height: number): Promise<Buffer> {
  const px = Buffer.alloc(width * height * 3);
  for (let i = 0; i < px.length; i++) px[i] = (i * 2654435761) >>> 24;
  return sharp(px, { raw: { width, height, channels: 3 } }).blur(1.2).png().toBuffer();
}

// The engine's thread does not hold the process open (a server may exit with it idle): this does.
const keepAlive = setInterval(() => undefined, 1000);
const { upscale } = loadConfig(process.env);
const threads = upscale.threads;
const upscaler = createWorkshopUpscale({
  modelsDir: await ensureModels(upscale.modelsDir),
  threads,
  maxPixels: upscale.maxPixels,
  memoryBudgetBytes: upscale.memoryBudgetBytes,
  winograd: upscale.winograd,
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
