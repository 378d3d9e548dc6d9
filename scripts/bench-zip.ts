// ZIP build time for a 30-image batch of ~1 MB results, with the same streaming code the ZIP
// worker runs (build-results-zip.ts). Payloads are random bytes: like PNG/JPEG output they do not
// compress, so the store-only path is what gets measured. Prints per-run and median milliseconds.
import { randomFillSync } from 'node:crypto';
import { unzipSync } from 'fflate';
import { buildResultsZip, type ZipResultItem } from '../src/lib/zip/build-results-zip.js';

const COUNT = Number(process.env.BENCH_ZIP_COUNT ?? 30);
const BYTES = Number(process.env.BENCH_ZIP_BYTES ?? 1024 * 1024);
const RUNS = Number(process.env.BENCH_ZIP_RUNS ?? 5);

const items: ZipResultItem[] = Array.from({ length: COUNT }, (_, i) => {
  const data = randomFillSync(new Uint8Array(BYTES - 4096 + ((i * 8191) % 8192)));
  return {
    sourceName: `面料-${String(i + 1).padStart(2, '0')}.jpg`,
    blob: new Blob([data], { type: 'image/png' }),
    modelName: i % 2 ? 'up2x-denoise2x' : 'up2x-conservative',
    scale: 2,
    width: 1280,
    height: 960,
    durationMs: 2000 + i,
  };
});
const inputBytes = items.reduce((sum, item) => sum + item.blob.size, 0);

const times: number[] = [];
let zipBytes = 0;
for (let run = 0; run < RUNS + 1; run += 1) {
  const start = performance.now();
  const zip = await buildResultsZip(items);
  const ms = performance.now() - start;
  zipBytes = zip.size;
  // The first run warms the JIT and is not counted.
  if (run > 0) times.push(ms);
  if (run === 0) {
    const entries = Object.keys(unzipSync(new Uint8Array(await zip.arrayBuffer())));
    if (entries.length !== COUNT + 1) throw new Error(`expected ${COUNT + 1} entries, got ${entries.length}`);
  }
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? 0;
console.log(`zip: ${COUNT} results, ${(inputBytes / 1048576).toFixed(1)} MiB in, ${(zipBytes / 1048576).toFixed(1)} MiB out`);
console.log(`zip: runs ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
console.log(`zip: median ${median.toFixed(0)} ms for ${COUNT} results of ~${(BYTES / 1048576).toFixed(1)} MB`);
