// `npm run bench:upscale`: our engine vs realcugan-ncnn-vulkan's CPU mode (-g -1)
// on generated images: a photo-like 640x480, a 2 MP fabric-like weave, and a
// 4 MP 4x job for the memory bound. Medians of several runs (RUNS, default 3);
// our engine runs in a child process so its peak RSS is its own.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';

import { UpscaleEngine } from '../server/upscale/engine.js';
import { defaultModelsDir, ensureModels, referenceBinary, weightsDir } from '../server/upscale/model-store.js';

const run = promisify(execFile);
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function worker(args: string[]): Promise<void> {
  const [input, model, runs, out] = args as [string, string, string, string];
  const engine = new UpscaleEngine({ modelsDir: defaultModelsDir() });
  const img = await readFile(input);
  const times: number[] = [];
  let last: Buffer | undefined;
  let info = '';
  for (let i = 0; i < Number(runs); i++) {
    const t = performance.now();
    const r = await engine.upscale(img, { modelName: model });
    times.push(performance.now() - t);
    last = r.data;
    info = `${r.strategy}, ${r.tiles} tiles`;
  }
  await writeFile(out, last!);
  await engine.close();
  process.stdout.write(JSON.stringify({ times, rssKb: process.resourceUsage().maxRSS, info }));
}

async function photoLike(w: number, h: number): Promise<Buffer> {
  // Smooth gradients and blurred shapes with fine noise: edges plus texture like a photo.
  const px = Buffer.alloc(w * h * 3);
  let s = 42;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const blob = Math.hypot(x - w * 0.4, y - h * 0.5) < h * 0.3 ? 60 : 0;
      for (let c = 0; c < 3; c++) {
        s = (s * 1103515245 + 12345) >>> 0;
        const v = 70 + (x / w) * 90 + (y / h) * 40 * (c + 1) + blob * (c === 1 ? -1 : 1) + ((s >>> 16) % 25) - 12;
        px[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } }).blur(0.8).png().toBuffer();
}

async function fabricLike(w: number, h: number): Promise<Buffer> {
  // Twill weave: diagonal threads, colour stripes and yarn irregularity.
  const px = Buffer.alloc(w * h * 3);
  let s = 7;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const warp = ((x + y) >> 2) % 2 === 0;
      const stripe = Math.floor(x / 48) % 3;
      s = (s * 1103515245 + 12345) >>> 0;
      const yarn = ((s >>> 16) % 31) - 15 + 12 * Math.sin(y * 0.9 + (x >> 3));
      const base = warp ? [150, 60 + stripe * 40, 70] : [40, 70, 120 + stripe * 30];
      for (let c = 0; c < 3; c++) px[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base[c]! + yarn)));
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
}

function runWorker(input: string, model: string, runs: number, out: string): Promise<{ times: number[]; rssKb: number; info: string }> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', self, '--worker', input, model, String(runs), out], { stdio: ['ignore', 'pipe', 'inherit'] });
    let data = '';
    child.stdout.on('data', (d: Buffer) => (data += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(data) as { times: number[]; rssKb: number; info: string }) : reject(new Error(`worker exited ${code}`))));
  });
}

async function reference(dir: string, input: string, scale: number, out: string, tile?: number): Promise<{ ms: number; rssKb: number }> {
  const t = performance.now();
  const args = ['-f', '%M', referenceBinary(dir), '-g', '-1', '-s', String(scale), '-n', '-1', '-m', weightsDir(dir), '-i', input, '-o', out];
  if (tile) args.push('-t', String(tile));
  const { stderr } = await run('/usr/bin/time', args, { maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  const rssKb = Number(stderr.trim().split('\n').pop());
  return { ms, rssKb };
}

async function pixelDiff(a: string, b: string): Promise<{ max: number; mean: number }> {
  const x = await sharp(a).removeAlpha().raw().toBuffer();
  const y = await sharp(b).removeAlpha().raw().toBuffer();
  let max = 0;
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(x[i]! - y[i]!);
    if (d > max) max = d;
    sum += d;
  }
  return { max, mean: sum / x.length };
}

async function main(): Promise<void> {
  const dir = await ensureModels(defaultModelsDir(), console.log);
  const runs = Number(process.env['RUNS'] ?? 3);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'loom-bench-'));
  try {
    const images = {
      'photo 640x480': await photoLike(640, 480),
      'fabric 1632x1224 (2 MP)': await fabricLike(1632, 1224),
      'fabric 2048x2048 (4 MP)': await fabricLike(2048, 2048),
    };
    const files: Record<string, string> = {};
    for (const [name, buf] of Object.entries(images)) {
      files[name] = path.join(tmp, `${name.split(' ')[0]}-${buf.length}.png`);
      await writeFile(files[name]!, buf);
    }
    const cases: Array<{ image: keyof typeof images; scale: number; ref: boolean; refUntiled: boolean; runs: number }> = [
      { image: 'photo 640x480', scale: 2, ref: true, refUntiled: true, runs },
      { image: 'photo 640x480', scale: 4, ref: true, refUntiled: true, runs },
      { image: 'fabric 1632x1224 (2 MP)', scale: 2, ref: true, refUntiled: false, runs },
      { image: 'fabric 2048x2048 (4 MP)', scale: 4, ref: false, refUntiled: false, runs: 1 },
    ];
    const rows: string[] = [];
    for (const c of cases) {
      const input = files[c.image]!;
      const meta = await sharp(input).metadata();
      const mp = (meta.width! * meta.height!) / 1e6;
      const ours = path.join(tmp, `ours-${c.scale}.png`);
      // one warm-up run (model conversion, session creation) is excluded from the median
      const o = await runWorker(input, `up${c.scale}x-conservative`, c.runs + (c.runs > 1 ? 1 : 0), ours);
      const oursMs = median(c.runs > 1 ? o.times.slice(1) : o.times);
      let refCols = '| — | — | — | — |';
      if (c.ref) {
        const refOut = path.join(tmp, `ref-${c.scale}.png`);
        const r: Array<{ ms: number; rssKb: number }> = [];
        for (let i = 0; i < c.runs; i++) r.push(await reference(dir, input, c.scale, refOut));
        const refMs = median(r.map((x) => x.ms));
        let parity = await pixelDiff(ours, refOut);
        let against = 'ref default tiles';
        if (c.refUntiled) {
          const untiledOut = path.join(tmp, `ref-untiled-${c.scale}.png`);
          await reference(dir, input, c.scale, untiledOut, Math.max(meta.width!, meta.height!) + 64);
          parity = await pixelDiff(ours, untiledOut);
          against = 'ref untiled';
        }
        refCols = `| ${(refMs / mp).toFixed(0)} | ${(refMs / oursMs).toFixed(2)}x | ${(Math.max(...r.map((x) => x.rssKb)) / 1024).toFixed(0)} MB | ${parity.max} / ${parity.mean.toFixed(4)} (${against}) |`;
      }
      const row = `| ${c.image} | ${c.scale}x | ${(oursMs / mp).toFixed(0)} | ${(oursMs / 1000).toFixed(2)} s (${o.info}) | ${(o.rssKb / 1024).toFixed(0)} MB ${refCols}`;
      rows.push(row);
      console.log(row);
    }
    console.log('\n| image | scale | ours ms/MP | ours median | ours peak RSS | reference ms/MP | speed-up | reference peak RSS | max / mean abs diff |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--worker') await worker(process.argv.slice(3));
else await main();
