// `node --import tsx scripts/bench-upscale-device.ts [--build DIR] [--full] [--webgpu]`: on-device
// upscaling (onnxruntime-web in headless Chromium on this machine) against the server's exact path
// on the same images: ms per input megapixel on each side, CPU seconds (user + system, from /proc:
// the server's process, and every Chromium process) beside the wall time of the same measured
// span (the device's includes starting the worker and handing the images over), the max / mean pixel
// difference, the peak memory of Chromium's processes during the job and the page's long tasks
// (over 50 ms) while the worker runs. The images are bench-upscale.ts's generated photo and
// fabric. Both sides are warmed up on a small image first (model conversion, graph downloads,
// sessions), so the figures are the steady state. The device's figure is the worker's whole job
// (decode, tiles, encode); its inference-only time is shown beside it.
//   --full    adds the 2 MP fabric (several minutes on wasm)
//   --webgpu  runs each image on WebGPU too (Chromium's SwiftShader adapter here: a CPU emulating
//             a GPU, so its speed says nothing of a tablet's GPU, only its accuracy counts)
// `npm run bench:upscale-device` builds into dist first and passes --build dist.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { chromiumArgs } from '../playwright.config.js';
import { fabricLike, photoLike } from './bench-images.js';
import { startServer } from '../tests/e2e/server-process.js';
import {
  apiToken,
  deviceUpscale,
  localWorkerAsset,
  pixelDiff,
  serverUpscale,
} from '../tests/e2e/device-upscale-helpers.js';

const args = process.argv.slice(2);
const buildDir = path.resolve(
  args.includes('--build') ? args[args.indexOf('--build') + 1]! : 'dist',
);
const full = args.includes('--full');
const withWebGpu = args.includes('--webgpu');
const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

interface ProcSample {
  cpuSeconds: number;
  rssBytes: number;
}

/** CPU seconds (user + system) and resident memory of a process's descendants, less one subtree. */
function sampleTree(rootPid: number, exceptPid = -1): ProcSample {
  const parent = new Map<number, number>();
  const stats = new Map<number, string[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const raw = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces), from field 3 (state) on.
      const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      stats.set(Number(name), fields);
    } catch {
      // the process ended while we read
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) {
      if (p === exceptPid) return false;
      if (p === rootPid) return true;
    }
    return false;
  };
  let ticks = 0;
  let pages = 0;
  for (const [pid, f] of stats) {
    if (!inTree(pid)) continue;
    ticks += Number(f[11]) + Number(f[12]); // utime, stime
    pages += Number(f[21]); // rss
  }
  return { cpuSeconds: ticks / TICKS_PER_SECOND, rssBytes: pages * 4096 };
}

/** Runs `work` while sampling the tree every 200 ms: its CPU seconds and peak resident memory. */
async function measured<T>(
  tree: { root: number; except?: number },
  work: () => Promise<T>,
): Promise<{ value: T; cpuSeconds: number; windowSeconds: number; peakRss: number }> {
  const sample = (): ProcSample => sampleTree(tree.root, tree.except);
  const before = sample();
  const started = performance.now();
  let peakRss = before.rssBytes;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, sample().rssBytes);
  }, 200);
  try {
    const value = await work();
    const after = sample();
    return {
      value,
      cpuSeconds: after.cpuSeconds - before.cpuSeconds,
      windowSeconds: (performance.now() - started) / 1000,
      peakRss: Math.max(peakRss, after.rssBytes),
    };
  } finally {
    clearInterval(timer);
  }
}
const PORT = Number(process.env.BENCH_DEVICE_PORT ?? 8184);

async function main(): Promise<void> {
  const server = await startServer(PORT, {
    STATIC_DIR: buildDir,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'loom-bench-device-')),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: withWebGpu ? [...chromiumArgs, '--enable-unsafe-webgpu'] : chromiumArgs,
  });
  // Chromium is this process's child, as is the server: Chromium's figures are our descendants
  // less the server's tree.
  const serverPid = server.process.pid;
  if (!serverPid) throw new Error('no process id for the server');
  const serverTree = { root: serverPid };
  const chromiumTree = { root: process.pid, except: serverPid };
  try {
    const token = await apiToken(server.url);
    const page = await browser.newPage();
    await page.goto(`${server.url}/config.json`);
    const worker = localWorkerAsset(buildDir);
    type Backend = 'wasm' | 'webgpu';
    const cases: { name: string; png: Buffer; model: string; maxTile?: number; backends?: Backend[] }[] = [
      { name: 'photo 640x480 2x', png: await photoLike(640, 480), model: 'up2x-conservative' },
      { name: 'fabric 640x480 2x', png: await fabricLike(640, 480), model: 'up2x-conservative' },
      { name: 'photo 320x240 4x', png: await photoLike(320, 240), model: 'up4x-conservative' },
    ];
    if (full)
      cases.push({
        name: 'fabric 1632x1224 (2 MP) 2x',
        png: await fabricLike(1632, 1224),
        model: 'up2x-conservative',
      });
    // SwiftShader takes about 4 s per thousand pixels: WebGPU gets small images, untiled and tiled.
    if (withWebGpu)
      cases.push(
        {
          name: 'photo 96x72 2x',
          png: await photoLike(96, 72),
          model: 'up2x-conservative',
          backends: ['wasm', 'webgpu'],
        },
        {
          name: 'photo 128x96 2x, tiles of ≤64',
          png: await photoLike(128, 96),
          model: 'up2x-conservative',
          maxTile: 64,
          backends: ['wasm', 'webgpu'],
        },
      );
    const warm = await photoLike(64, 64);
    for (const model of new Set(cases.map((c) => c.model))) {
      await serverUpscale(server.url, token, warm, model);
      await deviceUpscale(page, worker, token, warm, model, { backend: 'wasm' });
    }
    // Long tasks on the page that hosts the worker: its main thread must stay free while the job
    // runs (the harness's own reading of the result afterwards is not counted).
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: { start: number; duration: number }[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask' });
    });
    const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;
    const rows: string[] = [];
    const emit = (row: string): void => {
      rows.push(row);
      process.stdout.write(`${row}\n`);
    };
    for (const c of cases) {
      const meta = await sharp(c.png).metadata();
      const mp = (meta.width! * meta.height!) / 1e6;
      const s = await measured(serverTree, () => serverUpscale(server.url, token, c.png, c.model));
      emit(
        `| ${c.name} | server, exact | ${Math.round(s.value.ms / mp)} | ${(s.value.ms / 1000).toFixed(1)} | ` +
          `${s.windowSeconds.toFixed(1)} / ${s.cpuSeconds.toFixed(1)} | ${mb(s.peakRss)} | | 1.0x | | | |`,
      );
      for (const backend of c.backends ?? ['wasm']) {
        const d = await measured(chromiumTree, () =>
          deviceUpscale(page, worker, token, c.png, c.model, {
            backend,
            ...(c.maxTile ? { maxTile: c.maxTile } : {}),
          }),
        );
        const { start, end } = d.value.window;
        const longTasks = (
          await page.evaluate(
            () => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks,
          )
        )
          .filter((t) => t.start + t.duration > start && t.start < end)
          .map((t) => t.duration);
        const diff = await pixelDiff(s.value.png, d.value.png);
        const st = d.value.stats;
        emit(
          `| ${c.name} | device, ${st.backend}, ${st.threads} thread(s) | ${Math.round(st.totalMs / mp)} | ` +
            `${(st.totalMs / 1000).toFixed(1)} | ${d.windowSeconds.toFixed(1)} / ${d.cpuSeconds.toFixed(1)} | ` +
            `${mb(d.peakRss)} | ` +
            `${Math.round(st.inferenceMs / mp)} | ${(st.totalMs / s.value.ms).toFixed(1)}x | ` +
            `${st.tiles} tiles of ≤${st.tileSide} px, ${st.strategy} | ${diff.max} / ${diff.mean.toFixed(5)} | ` +
            `${longTasks.length}${longTasks.length ? ` (longest ${Math.round(Math.max(...longTasks))} ms)` : ''} |`,
        );
      }
    }
    process.stdout.write(
      `\n| image | engine | ms/MP | job wall s | measured wall s / CPU s | peak RSS | inference ms/MP | vs server | tiling | max / mean diff | page long tasks |\n` +
        `|---|---|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
