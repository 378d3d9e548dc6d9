// `npm run bench:upscale-threads [-- --rounds N]`: how the engine's threads are best spent on this
// machine, with the machine's CPU line beside the figures.
//   spinning  one job at a time on every core, onnxruntime's intra-op threads spinning while they
//             wait for work (onnxruntime's default) or sleeping (the engine's): wall time and CPU
//             seconds in user mode per megapixel, a 640x480 photo at 2x and 4x;
//   batch     three jobs at once (the PWA's window), as every core on one job at a time (spinning or
//             not), or one core per job with as many jobs at once as there are cores: the batch's
//             wall time and CPU seconds.
// Each configuration runs in a child process of its own with the service's own engine threads
// (ThreadedEngine), after one untimed job per engine that loads the model; the configurations take
// turns in rounds, so the machine's drift falls on all of them, and the medians are printed.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { childJob, runChild } from './bench-child.js';
import { photoLike } from './bench-images.js';
import { relaunchAsAvx2IfAsked } from './avx2-only.js';
import { machineLine } from './machine-line.js';
import { ThreadedEngine } from '../server/modules/upscale/threaded-engine.js';
import { DEFAULT_MAX_INPUT_PIXELS } from '../server/upscale/engine.js';
import { defaultModelsDir, ensureModels } from '../server/upscale/model-store.js';

interface Layout {
  name: string;
  /** engines (queue slots) working at once */
  engines: number;
  /** onnxruntime threads per engine */
  threads: number;
  spinning: boolean;
}

interface ChildJob {
  layout: Layout;
  input: string;
  model: string;
  /** timed jobs, shared out to the engines as each comes free */
  jobs: number;
}

interface ChildResult {
  wallMs: number;
  userS: number;
  sysS: number;
}

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function child(job: ChildJob): Promise<void> {
  const { layout } = job;
  // The engine threads are unref'd (a server does not wait for them to exit): this keeps the process up.
  const alive = setInterval(() => undefined, 1000);
  const engines = Array.from(
    { length: layout.engines },
    () =>
      new ThreadedEngine({
        modelsDir: defaultModelsDir(),
        threads: layout.threads,
        maxInputPixels: DEFAULT_MAX_INPUT_PIXELS,
        spinning: layout.spinning,
      }),
  );
  const input = await readFile(job.input);
  // Untimed: each engine's thread starts and loads the model's sessions.
  await Promise.all(engines.map((e) => e.upscale(input, { modelName: job.model })));
  let left = job.jobs;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    engines.map(async (e) => {
      while (left > 0) {
        left -= 1;
        await e.upscale(input, { modelName: job.model });
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const result: ChildResult = {
    wallMs: performance.now() - started,
    userS: used.user / 1e6,
    sysS: used.system / 1e6,
  };
  await Promise.all(engines.map((e) => e.close()));
  clearInterval(alive);
  process.stdout.write(JSON.stringify(result));
}

/** Runs the layouts in turns, `rounds` times, and answers each one's results. */
async function inTurns(
  layouts: Layout[],
  rounds: number,
  job: Omit<ChildJob, 'layout'>,
): Promise<ChildResult[][]> {
  const results: ChildResult[][] = layouts.map(() => []);
  for (let r = 0; r < rounds; r += 1)
    for (const [i, layout] of layouts.entries()) results[i]!.push(await runChild<ChildJob, ChildResult>(import.meta.url, { ...job, layout }));
  return results;
}

async function main(): Promise<void> {
  const roundsArg = process.argv.indexOf('--rounds');
  const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;
  const cores = os.availableParallelism();
  await ensureModels(defaultModelsDir(), console.log);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'loom-bench-threads-'));
  const started = performance.now();
  console.log(`bench:upscale-threads, ${rounds} rounds — ${machineLine()}\n`);
  try {
    const photo = path.join(tmp, 'photo.png');
    await writeFile(photo, await photoLike(640, 480));
    const mp = (640 * 480) / 1e6;

    console.log('## One job at a time on every core: spinning or not (median of the rounds)\n');
    console.log(
      '| case | spinning: wall, CPU user | sleeping: wall, CPU user | wall sleeping / spinning | CPU user sleeping / spinning |',
    );
    console.log('|---|---|---|---|---|');
    for (const model of ['up2x-conservative', 'up4x-conservative']) {
      const layouts: Layout[] = [
        { name: 'spinning', engines: 1, threads: cores, spinning: true },
        { name: 'sleeping', engines: 1, threads: cores, spinning: false },
      ];
      const [spin, sleep] = await inTurns(layouts, rounds, { input: photo, model, jobs: 1 });
      const cell = (r: ChildResult[]) =>
        `${(median(r.map((x) => x.wallMs)) / 1000).toFixed(2)} s, ${(median(r.map((x) => x.userS)) / mp).toFixed(1)} s/MP`;
      const ratio = (f: (x: ChildResult) => number) =>
        (median(sleep!.map(f)) / median(spin!.map(f))).toFixed(2);
      console.log(
        `| 640x480 ${model.slice(2, 4)} | ${cell(spin!)} | ${cell(sleep!)} | ${ratio((x) => x.wallMs)} | ${ratio((x) => x.userS)} |`,
      );
    }

    console.log('\n## A batch of 3 jobs, 640x480 2x (median of the rounds)\n');
    console.log('| layout | wall | CPU user | CPU kernel | images per minute |');
    console.log('|---|---|---|---|---|');
    const batch: Layout[] = [
      { name: `1 job at a time × ${cores} threads, spinning`, engines: 1, threads: cores, spinning: true },
      { name: `1 job at a time × ${cores} threads, sleeping`, engines: 1, threads: cores, spinning: false },
      { name: `${cores} jobs at once × 1 thread`, engines: cores, threads: 1, spinning: false },
    ];
    const results = await inTurns(batch, rounds, { input: photo, model: 'up2x-conservative', jobs: 3 });
    for (const [i, layout] of batch.entries()) {
      const r = results[i]!;
      const wall = median(r.map((x) => x.wallMs)) / 1000;
      console.log(
        `| ${layout.name} | ${wall.toFixed(2)} s | ${median(r.map((x) => x.userS)).toFixed(1)} s | ${median(r.map((x) => x.sysS)).toFixed(1)} s | ${((3 / wall) * 60).toFixed(1)} |`,
      );
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s in all; ${machineLine()}`);
}

const job = childJob<ChildJob>();
if (job) await child(job);
else {
  await relaunchAsAvx2IfAsked();
  await main();
}
