// `npm run bench:upscale-tiles [-- --rounds N] [--scales 2,4]`: what tiling costs the engine, with the machine's
// CPU line beside the figures. For a 640x480 photo at 2x, 3x and 4x it runs the same job untiled
// (the one-graph path; it needs 2-4 GB), with the memory budget's tiles (what the service runs), and
// with fixed tile sides, and prints each one's CPU seconds in user mode per megapixel against the
// untiled figure: the arithmetic the tiles' halos and the staged passes add. Beside it, the job's
// CPU seconds in kernel mode: mostly the fresh pages each stage's arena takes, more with larger
// tiles, and paid in wall time (a Zen 4 ran 640x480 2x in less wall time in 12 tiles than in 4,
// for a little more CPU user). Each run's output is compared with the untiled one (the tiled path
// is exact: at most 1/255 apart).
// Every configuration runs in a child process of its own (its own peak RSS), after one untimed job
// that loads the model; configurations take turns in rounds and the medians are printed.
// A second table says where the budget's tiled CPU time goes: the one graph on padded tiles (the
// recompute path's last pass, on that path's own, smaller tiles: the halos' cost without the
// stages), the staged graphs the service runs, and the job's time outside onnxruntime's runs
// (decoding, tile copies, the cache, encoding).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout } from 'node:timers/promises';
import path from 'node:path';
import sharp from 'sharp';
import { childJob, ownPeakRssBytes, runChild } from './bench-child.js';
import { photoLike } from './bench-images.js';
import { relaunchAsAvx2IfAsked } from './avx2-only.js';
import { machineLine } from './machine-line.js';
import { upscaleWinogradSetting } from '../server/config.js';
import { UpscaleEngine } from '../server/upscale/engine.js';
import { defaultModelsDir, ensureModels } from '../server/upscale/model-store.js';

interface Config {
  name: string;
  /** largest tile side in input pixels; undefined: the memory budget decides */
  maxTile?: number;
  /** the engine's cache_mode (0, the service's, unless set) */
  cacheMode?: number;
}

interface ChildJobSpec {
  config: Config;
  scale: number;
  input: string;
  out: string;
}

interface ChildResult {
  wallMs: number;
  userS: number;
  sysS: number;
  peakRssBytes: number;
  tiles: number;
  strategy: string;
  /** CPU seconds in user mode of the timed job's graph runs, by graph (model variant) */
  runUserS: Record<string, number>;
}

/** larger than the photo: the engine runs the plain graph once */
const UNTILED = 100_000;
const CONFIGS: Config[] = [
  { name: 'untiled', maxTile: UNTILED },
  { name: 'memory budget (the service)' },
  { name: 'memory budget, recompute passes (cache_mode 3)', cacheMode: 3 },
  { name: 'tiles of at most 320 px', maxTile: 320 },
  { name: 'tiles of at most 192 px', maxTile: 192 },
  { name: 'tiles of at most 128 px', maxTile: 128 },
];

/** the pause after an untiled run, while the kernel takes back its memory */
const SETTLE_MS = 10_000;

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const BUDGET = CONFIGS.findIndex((c) => c.maxTile === undefined && c.cacheMode === undefined);
const RECOMPUTE = CONFIGS.findIndex((c) => c.cacheMode === 3);

async function child(job: ChildJobSpec): Promise<void> {
  const cap = job.config.maxTile;
  const runUserS: Record<string, number> = {};
  let timed = false;
  const winograd = upscaleWinogradSetting();
  const engine = new UpscaleEngine({
    modelsDir: defaultModelsDir(),
    threads: os.availableParallelism(),
    ...(winograd === undefined ? {} : { winograd }),
    ...(cap !== undefined ? { maxTile: { [job.scale]: cap } } : {}),
    onRun: (run) => {
      if (timed) runUserS[run.variant] = (runUserS[run.variant] ?? 0) + run.userMs / 1000;
    },
  });
  const input = await readFile(job.input);
  const opts = { modelName: `up${job.scale}x-conservative`, cacheMode: job.config.cacheMode ?? 0 };
  await engine.upscale(input, opts); // untimed: converts and loads the model
  timed = true;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const r = await engine.upscale(input, opts);
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - started;
  await writeFile(job.out, r.data);
  await engine.close();
  const result: ChildResult = {
    wallMs,
    userS: used.user / 1e6,
    sysS: used.system / 1e6,
    peakRssBytes: ownPeakRssBytes(),
    tiles: r.tiles,
    strategy: r.strategy,
    runUserS,
  };
  process.stdout.write(JSON.stringify(result));
}

/** The largest difference of one channel value between two images, in 1/255 steps. */
async function maxDiff(a: string, b: string): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).raw().toBuffer()));
  if (x!.length !== y!.length) return Number.POSITIVE_INFINITY;
  let max = 0;
  for (let i = 0; i < x!.length; i++) max = Math.max(max, Math.abs(x![i]! - y![i]!));
  return max;
}

/** Graph runs' CPU time by part: the halos' cost (one graph on the tiles), the staged graphs', the rest's. */
function breakdown(scale: number, results: ChildResult[][], mp: number): string[] {
  const perMp = (r: ChildResult[], part: (x: ChildResult) => number): number => median(r.map(part)) / mp;
  const graphs = (x: ChildResult, pick: (variant: string) => boolean): number =>
    Object.entries(x.runUserS).reduce((sum, [variant, s]) => sum + (pick(variant) ? s : 0), 0);
  const untiled = perMp(results[0]!, (x) => graphs(x, () => true));
  const budget = results[BUDGET]!;
  const tiles = `${budget[0]!.tiles} tiles`;
  const rows: [string, number][] = [
    ['untiled: the one graph, whole image', untiled],
    // the recompute path sizes its own tiles (smaller: the one graph holds every layer at once)
    [`${results[RECOMPUTE]![0]!.tiles} tiles: the one graph on each padded tile (recompute path's last pass)`, perMp(results[RECOMPUTE]!, (x) => graphs(x, (v) => v === 'shared'))],
    [`${tiles}: the staged graphs (the service's path), all stages`, perMp(budget, (x) => graphs(x, () => true))],
    [`${tiles}: outside the graph runs`, perMp(budget, (x) => x.userS - graphs(x, () => true))],
  ];
  const stages = [...new Set(budget.flatMap((x) => Object.keys(x.runUserS)))].sort();
  for (const stage of stages) rows.push([`${tiles}: ${stage}`, perMp(budget, (x) => x.runUserS[stage] ?? 0)]);
  return rows.map(([part, v]) => `| 640x480 ${scale}x | ${part} | ${v.toFixed(1)} | ${(v / untiled).toFixed(2)}x |`);
}

async function main(): Promise<void> {
  const roundsArg = process.argv.indexOf('--rounds');
  const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;
  const scalesArg = process.argv.indexOf('--scales');
  const scales = scalesArg > 0 ? process.argv[scalesArg + 1]!.split(',').map(Number) : [2, 3, 4];
  if (scales.some((s) => ![2, 3, 4].includes(s))) throw new Error('--scales takes 2, 3 and 4, comma-separated');
  await ensureModels(defaultModelsDir(), console.log);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'loom-bench-tiles-'));
  const started = performance.now();
  console.log(`bench:upscale-tiles, ${rounds} rounds — ${machineLine()}\n`);
  try {
    const photo = path.join(tmp, 'photo.png');
    await writeFile(photo, await photoLike(640, 480));
    const mp = (640 * 480) / 1e6;
    const breakdowns: string[] = [];
    console.log('| case | tiling | tiles (path) | wall | CPU user s/MP | CPU user vs untiled | CPU kernel s | peak RSS | max diff vs untiled |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const scale of scales) {
      const results: ChildResult[][] = CONFIGS.map(() => []);
      const out = (i: number): string => path.join(tmp, `out-${scale}-${i}.png`);
      // The untiled run goes last in each round, and the machine settles after it: the process
      // right after it (2-4 GB freed) ran 1.5x slower than the same tiles later in the round.
      const order = [...CONFIGS.keys()].slice(1).concat(0);
      for (let round = 0; round < rounds; round++)
        for (const i of order) {
          results[i]!.push(
            await runChild<ChildJobSpec, ChildResult>(import.meta.url, { config: CONFIGS[i]!, scale, input: photo, out: out(i) }),
          );
          if (i === 0) await setTimeout(SETTLE_MS);
        }
      const userPerMp = (r: ChildResult[]): number => median(r.map((x) => x.userS)) / mp;
      const untiled = userPerMp(results[0]!);
      for (const [i, config] of CONFIGS.entries()) {
        const r = results[i]!;
        const diff = i === 0 ? '—' : `${await maxDiff(out(i), out(0))}/255`;
        console.log(
          `| 640x480 ${scale}x | ${config.name} | ${r[0]!.tiles} (${r[0]!.strategy}) | ${(median(r.map((x) => x.wallMs)) / 1000).toFixed(2)} s | ${userPerMp(r).toFixed(1)} | ${(userPerMp(r) / untiled).toFixed(2)}x | ${median(r.map((x) => x.sysS)).toFixed(2)} | ${(Math.max(...r.map((x) => x.peakRssBytes)) / 2 ** 20).toFixed(0)} MiB | ${diff} |`,
        );
      }
      breakdowns.push(...breakdown(scale, results, mp));
    }
    console.log('\nWhere the tiled CPU time goes (CPU user s/MP, medians; vs the untiled one-graph run):\n');
    console.log('| case | part | CPU user s/MP | vs untiled |');
    console.log('|---|---|---|---|');
    for (const line of breakdowns) console.log(line);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  console.log('\nTarget (the upscaling issue): the tiled CPU user s/MP within 10 % of the untiled figure at every scale.');
  console.log(`${((performance.now() - started) / 1000).toFixed(0)} s in all; ${machineLine()}`);
}

const job = childJob<ChildJobSpec>();
if (job) await child(job);
else {
  await relaunchAsAvx2IfAsked();
  await main();
}
