// `npm run bench:upscale [-- --quick]`: our engine vs realcugan-ncnn-vulkan's CPU
// mode (-g -1) on generated images, side by side in one run, then one verdict
// line per target of the upscaling issue:
//   parity   ours vs the reference run untiled, within 1/255 at every pixel, for
//            up2x, up3x and up4x, our untiled and our tiled path (photo 640x480);
//   speed    ours >= 1.5x the reference at 2x and 3x, >= 2x at 4x (photo
//            640x480) and >= 1.5x at 2x on a 2 MP fabric (both sides in their
//            default settings, the median of RUNS rounds, see below);
//   memory   peak RSS <= 1 GiB for 4 MP 4x and 2x jobs (each in its own child process), for
//            the 640x480 4x job, and for 8 of those jobs run back to back in one process.
//            The rows give each round's peak beside the highest: on a fresh model cache the
//            first round's process also converts the model (0.2-0.7 s), and its peak says so.
// Timing: every figure excludes process start and model loading on both sides.
// Ours runs in a child process that does one untimed warm-up job first; each
// reference run is a fresh process, so the median wall time of the same binary
// on a 16x16 image (start, Vulkan/CPU init, model load) is subtracted from it.
// Both sides include decoding the PNG and encoding the result.
// The speed comparisons run in rounds, one reference run then one of ours,
// and the speed-up is the median of the rounds' ratios: on a shared virtual
// machine the speed of both drifts by 20 % or more within minutes, and
// running all of one side first measured the drift as much as the engines.
// --quick: one timed run per case instead of RUNS (default 3) and no 2 MP row
// against the reference.
// Beside every time: CPU seconds in user mode per megapixel of input, ours and
// the reference's, the figure that shows the arithmetic each side does whatever
// the machine's memory and load do to the wall time.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { childJob, ownPeakRssBytes, runChild } from './bench-child.js';
import { fabricLike, photoLike } from './bench-images.js';
import { relaunchAsAvx2IfAsked } from './avx2-only.js';
import { machineLine } from './machine-line.js';

import { upscaleWinogradSetting } from '../server/config.js';
import { UpscaleEngine } from '../server/upscale/engine.js';
import { freeNow } from '../server/upscale/free-now.js';
import {
  defaultModelsDir,
  ensureModels,
  referenceBinary,
  weightsDir,
} from '../server/upscale/model-store.js';

const run = promisify(execFile);
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const GIB = 1024 * 1024 * 1024;
/** jobs one process runs in a row for the steady-state memory line */
const BACK_TO_BACK = 8;
/** larger than any benchmark image: the engine runs the plain graph once */
const UNTILED = 100_000;

interface WorkerJob {
  input: string;
  /** image for the untimed warm-up jobs (default: input) */
  warmupInput?: string;
  model: string;
  warmup: number;
  runs: number;
  out: string;
  maxTile?: number;
}
interface WorkerResult {
  times: number[];
  /** CPU seconds of each timed job, all threads: user mode and kernel */
  userS: number[];
  sysS: number[];
  rssBytes: number;
  info: string;
}

async function worker(job: WorkerJob): Promise<void> {
  const scale = Number(/^up(\d)x/.exec(job.model)![1]);
  const winograd = upscaleWinogradSetting();
  const engine = new UpscaleEngine({
    modelsDir: defaultModelsDir(),
    ...(winograd === undefined ? {} : { winograd }),
    ...(job.maxTile ? { maxTile: { [scale]: job.maxTile } } : {}),
  });
  const img = await readFile(job.input);
  const warmupImg = job.warmupInput ? await readFile(job.warmupInput) : img;
  const times: number[] = [];
  const userS: number[] = [];
  const sysS: number[] = [];
  let last: Buffer | undefined;
  let info = '';
  for (let i = 0; i < job.warmup + job.runs; i++) {
    // The service frees each result once it is stored, before its next job: held here, the last
    // one (179 MB of PNG at 4 MP 4x) would count in the next job's peak.
    if (last) freeNow(last);
    const t = performance.now();
    const cpu = process.cpuUsage();
    const r = await engine.upscale(i < job.warmup ? warmupImg : img, {
      modelName: job.model,
    });
    if (i >= job.warmup) {
      times.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      userS.push(used.user / 1e6);
      sysS.push(used.system / 1e6);
    }
    last = r.data;
    info =
      r.strategy === 'single'
        ? 'untiled'
        : `${r.tiles} tiles, ${r.strategy}${r.skipCachedTiles ? `, skips cached in ${r.skipCachedTiles}` : ''}${r.float32Features ? ', float32 features' : ''}`;
  }
  await writeFile(job.out, last!);
  await engine.close();
  const result: WorkerResult = { times, userS, sysS, rssBytes: ownPeakRssBytes(), info };
  process.stdout.write(JSON.stringify(result));
}

/** One configuration in a fresh child process (its warm-up, peak memory and CPU time its own). */
const runWorker = (job: WorkerJob): Promise<WorkerResult> => runChild<WorkerJob, WorkerResult>(import.meta.url, job);

interface RefRun {
  ms: number;
  rssBytes: number;
  /** CPU seconds in user mode and in the kernel (mostly page faults: it touches GBs of fresh memory) */
  userS: number;
  sysS: number;
}

/** One reference process: wall time, peak RSS and CPU times (GNU time). `tile` omitted = its default tiling. */
async function reference(
  dir: string,
  input: string,
  scale: number,
  out: string,
  tile?: number,
): Promise<RefRun> {
  const t = performance.now();
  const args = [
    '-f',
    '%M %U %S',
    referenceBinary(dir),
    '-g',
    '-1',
    '-s',
    String(scale),
    '-n',
    '-1',
    '-m',
    weightsDir(dir),
    '-i',
    input,
    '-o',
    out,
  ];
  if (tile) args.push('-t', String(tile));
  const { stderr } = await run('/usr/bin/time', args, { maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  const [rssKb, userS, sysS] = stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { ms, rssBytes: rssKb! * 1024, userS: userS!, sysS: sysS! };
}

interface Rounds {
  refTimes: number[];
  refRss: number;
  refUserS: number[];
  refSysS: number[];
  ours: WorkerResult;
  /** our peak RSS, per round: a round whose process converted the model (a fresh cache) peaks higher */
  oursRss: number[];
  /** reference time / our time, per round */
  ratios: number[];
}

/** `runs` rounds of one reference run then one of ours (a fresh worker with its warm-up). */
async function interleaved(
  runs: number,
  refRun: () => Promise<RefRun>,
  job: Omit<WorkerJob, 'runs'>,
): Promise<Rounds> {
  const refTimes: number[] = [];
  const refUserS: number[] = [];
  const refSysS: number[] = [];
  const ratios: number[] = [];
  const oursRss: number[] = [];
  let refRss = 0;
  const ours: WorkerResult = { times: [], userS: [], sysS: [], rssBytes: 0, info: '' };
  for (let i = 0; i < runs; i++) {
    const r = await refRun();
    const o = await runWorker({ ...job, runs: 1 });
    refTimes.push(r.ms);
    refUserS.push(r.userS);
    refSysS.push(r.sysS);
    refRss = Math.max(refRss, r.rssBytes);
    ours.times.push(o.times[0]!);
    ours.userS.push(o.userS[0]!);
    ours.sysS.push(o.sysS[0]!);
    ours.rssBytes = Math.max(ours.rssBytes, o.rssBytes);
    oursRss.push(o.rssBytes);
    ours.info = o.info;
    ratios.push(r.ms / o.times[0]!);
  }
  return { refTimes, refRss, refUserS, refSysS, ours, oursRss, ratios };
}

/** CPU seconds in user mode / in the kernel (medians); the kernel's share is mostly page faults */
const cpuCell = (userS: number[], sysS: number[], mp: number): string =>
  `${median(userS).toFixed(1)} / ${median(sysS).toFixed(1)} s (user ${(median(userS) / mp).toFixed(1)} s/MP)`;

/** median CPU user seconds per MP of input: ours / the reference's */
const userPerMp = (ours: number[], ref: number[], mp: number): string =>
  `${(median(ours) / mp).toFixed(1)} / ${(median(ref) / mp).toFixed(1)} s per MP (ours / ref)`;

const spread = (ratios: number[]): string =>
  ratios.length > 1 ? ` (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})` : '';

async function pixelDiff(a: string, b: string): Promise<{ max: number; mean: number }> {
  const x = await sharp(a).removeAlpha().raw().toBuffer();
  const y = await sharp(b).removeAlpha().raw().toBuffer();
  if (x.length !== y.length) throw new Error(`size mismatch ${a} vs ${b}`);
  let max = 0;
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(x[i]! - y[i]!);
    if (d > max) max = d;
    sum += d;
  }
  return { max, mean: sum / x.length };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
/** the highest peak of the rounds, and each round's */
const peakCell = (rounds: number[]): string =>
  `${mb(Math.max(...rounds))}${rounds.length > 1 ? ` (rounds ${rounds.map((b) => (b / 1024 / 1024).toFixed(0)).join(' / ')})` : ''}`;
const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const runs = quick ? 1 : Number(process.env['RUNS'] ?? 3);
  const dir = await ensureModels(defaultModelsDir(), console.log);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'loom-bench-'));
  const started = performance.now();
  console.log(`bench:upscale${quick ? ' --quick' : ''}, ${runs} timed run(s) per case — ${machineLine()}`);
  console.log(
    'timing: ours = in-process jobs after one untimed warm-up; reference = process wall time minus its start-up (same binary on a 16x16 image); both include PNG decode/encode\n',
  );
  const rows: string[] = [];
  const verdicts: string[] = [];
  const verdict = (ok: boolean, target: string, figure: string): void => {
    verdicts.push(`${ok ? 'PASS' : 'FAIL'}  ${target}: ${figure}`);
  };
  const row = (cells: string[]): void => {
    const line = `| ${cells.join(' | ')} |`;
    rows.push(line);
    console.log(line);
  };
  try {
    const save = async (name: string, buf: Buffer): Promise<string> => {
      const file = path.join(tmp, name);
      await writeFile(file, buf);
      return file;
    };
    const tiny = await save(
      'tiny.png',
      await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
        .png()
        .toBuffer(),
    );
    const photo = await save('photo.png', await photoLike(640, 480));
    const photoMp = (640 * 480) / 1e6;
    {
      // reference start-up cost per scale, subtracted from its timings
      const startup: Record<number, number> = {};
      for (const scale of [2, 3, 4]) {
        const t: number[] = [];
        for (let i = 0; i < Math.max(3, runs); i++)
          t.push((await reference(dir, tiny, scale, path.join(tmp, 'tiny-out.png'))).ms);
        startup[scale] = median(t);
      }
      console.log(
        `reference start-up (16x16 job): ${[2, 3, 4].map((s) => `${s}x ${sec(startup[s]!)}`).join(', ')}\n`,
      );

      // --- photo 640x480: parity and speed at 2x, 3x, 4x ---
      const ratios: Record<number, number> = {};
      /** CPU user seconds per MP, ours / the reference's (defaults) */
      const cpuPerMp: Record<number, string> = {};
      for (const scale of [2, 3, 4]) {
        const model = `up${scale}x-conservative`;
        const refDefault = path.join(tmp, `ref-default-${scale}.png`);
        const oursTiledOut = path.join(tmp, `ours-tiled-${scale}.png`);
        const speed = await interleaved(
          runs,
          async () => {
            const r = await reference(dir, photo, scale, refDefault);
            return { ...r, ms: r.ms - startup[scale]! };
          },
          { input: photo, model, warmup: 1, out: oursTiledOut },
        );
        const { refTimes, refRss, ours: tiled } = speed;
        const refUntiledOut = path.join(tmp, `ref-untiled-${scale}.png`);
        const refUntiled = await reference(dir, photo, scale, refUntiledOut, 640 + 64);
        const oursUntiledOut = path.join(tmp, `ours-untiled-${scale}.png`);
        const untiled = await runWorker({
          input: photo,
          model,
          warmup: 1,
          runs: 1,
          out: oursUntiledOut,
          maxTile: UNTILED,
        });

        const refMs = median(refTimes);
        const oursMs = median(tiled.times);
        ratios[scale] = median(speed.ratios);
        cpuPerMp[scale] = userPerMp(tiled.userS, speed.refUserS, photoMp);
        const dUntiled = await pixelDiff(oursUntiledOut, refUntiledOut);
        const dTiled = await pixelDiff(oursTiledOut, refUntiledOut);
        const dRefDefault = await pixelDiff(refDefault, refUntiledOut);
        row([
          `photo 640x480 ${scale}x`,
          'ours default (' + tiled.info + ')',
          sec(oursMs),
          (oursMs / photoMp).toFixed(0),
          peakCell(speed.oursRss),
          cpuCell(tiled.userS, tiled.sysS, photoMp),
          `${ratios[scale]!.toFixed(2)}x vs ref default${spread(speed.ratios)}`,
          `${dTiled.max} / ${dTiled.mean.toFixed(4)} vs ref untiled`,
        ]);
        row([
          `photo 640x480 ${scale}x`,
          'ours untiled',
          sec(median(untiled.times)),
          (median(untiled.times) / photoMp).toFixed(0),
          mb(untiled.rssBytes),
          cpuCell(untiled.userS, untiled.sysS, photoMp),
          `${((refUntiled.ms - startup[scale]!) / median(untiled.times)).toFixed(2)}x vs ref untiled (1 run)`,
          `${dUntiled.max} / ${dUntiled.mean.toFixed(4)} vs ref untiled`,
        ]);
        row([
          `photo 640x480 ${scale}x`,
          'ref default (-t 0, -c 3)',
          sec(refMs),
          (refMs / photoMp).toFixed(0),
          mb(refRss),
          cpuCell(speed.refUserS, speed.refSysS, photoMp),
          '',
          `${dRefDefault.max} / ${dRefDefault.mean.toFixed(4)} vs ref untiled`,
        ]);
        row([
          `photo 640x480 ${scale}x`,
          'ref untiled (-t 704)',
          sec(refUntiled.ms - startup[scale]!),
          ((refUntiled.ms - startup[scale]!) / photoMp).toFixed(0),
          mb(refUntiled.rssBytes),
          cpuCell([refUntiled.userS], [refUntiled.sysS], photoMp),
          '',
          'parity baseline',
        ]);
        verdict(
          dUntiled.max <= 1,
          `parity up${scale}x untiled (max abs diff <= 1/255 vs ref untiled)`,
          `max ${dUntiled.max}, mean ${dUntiled.mean.toFixed(4)}`,
        );
        verdict(
          dTiled.max <= 1,
          `parity up${scale}x tiled, ${tiled.info} (max abs diff <= 1/255 vs ref untiled)`,
          `max ${dTiled.max}, mean ${dTiled.mean.toFixed(4)}`,
        );
        // the bound holds for any image up to 4 MP, small ones too
        if (scale === 4)
          verdict(
            tiled.rssBytes <= GIB,
            'peak RSS <= 1 GiB for a 640x480 4x job (child process VmHWM)',
            mb(tiled.rssBytes),
          );
      }
      for (const [scale, target] of [
        [2, 1.5],
        [3, 1.5],
        [4, 2],
      ] as const)
        verdict(
          ratios[scale]! >= target,
          `speed ${scale}x >= ${target}x the reference (photo 640x480, both default settings)`,
          `${ratios[scale]!.toFixed(2)}x; CPU user ${cpuPerMp[scale]}`,
        );

      // --- 2 MP fabric, 2x: speed on a larger image. The reference cannot run it
      // untiled here (its memory grows ~9 GB per MP), so the difference shown is
      // against its default tiling, whose SE sync is approximate: not a parity figure.
      if (!quick) {
        const fabric = await save('fabric2.png', await fabricLike(1632, 1224));
        const mp = (1632 * 1224) / 1e6;
        const refOut = path.join(tmp, 'ref-fabric.png');
        const oursOut = path.join(tmp, 'ours-fabric.png');
        // ours warms up on the photo: the sessions are what a warm-up is for
        const speed = await interleaved(
          runs,
          async () => {
            const r = await reference(dir, fabric, 2, refOut);
            return { ...r, ms: r.ms - startup[2]! };
          },
          { input: fabric, warmupInput: photo, model: 'up2x-conservative', warmup: 1, out: oursOut },
        );
        const { refTimes, refRss, ours } = speed;
        const d = await pixelDiff(oursOut, refOut);
        const ratio = median(speed.ratios);
        row([
          'fabric 1632x1224 (2 MP) 2x',
          `ours default (${ours.info})`,
          sec(median(ours.times)),
          (median(ours.times) / mp).toFixed(0),
          peakCell(speed.oursRss),
          cpuCell(ours.userS, ours.sysS, mp),
          `${ratio.toFixed(2)}x vs ref default${spread(speed.ratios)}`,
          `${d.max} / ${d.mean.toFixed(4)} vs ref default tiling (approximate SE; informational)`,
        ]);
        row([
          'fabric 1632x1224 (2 MP) 2x',
          'ref default (-t 0, -c 3)',
          sec(median(refTimes)),
          (median(refTimes) / mp).toFixed(0),
          mb(refRss),
          cpuCell(speed.refUserS, speed.refSysS, mp),
          '',
          '',
        ]);
        verdict(
          ratio >= 1.5,
          'speed 2x >= 1.5x the reference (fabric 2 MP, both default settings)',
          `${ratio.toFixed(2)}x; CPU user ${userPerMp(ours.userS, speed.refUserS, mp)}`,
        );
      }
    }

    // --- 4 MP at 4x and at 2x: peak RSS of the whole job (decode, tiles, PNG encode) in its own
    // process; 2x is where tiles are largest (LARGE_JOB_TILE in the engine), 4x where the output is
    const big = await save('fabric4.png', await fabricLike(2048, 2048));
    for (const scale of [4, 2]) {
      const bigRun = await runWorker({
        input: big,
        model: `up${scale}x-conservative`,
        warmup: 0,
        runs: 1,
        out: path.join(tmp, `ours-4mp-${scale}x.png`),
      });
      row([
        `fabric 2048x2048 (4 MP) ${scale}x`,
        `ours default, cold (${bigRun.info})`,
        sec(bigRun.times[0]!),
        (bigRun.times[0]! / 4.194).toFixed(0),
        mb(bigRun.rssBytes),
        cpuCell(bigRun.userS, bigRun.sysS, 4.194),
        'reference not run (needs tens of GB)',
        '',
      ]);
      verdict(
        bigRun.rssBytes <= GIB,
        `peak RSS <= 1 GiB for a 4 MP ${scale}x job (child process VmHWM)`,
        mb(bigRun.rssBytes),
      );
    }

    // --- a server's steady state: the 640x480 4x job BACK_TO_BACK times in one process, as an
    // engine runs its queue. Maps left to the garbage collector once made the peak grow from job to
    // job (past 1 GiB by the eighth), though each job alone stayed well below it.
    const serial = await runWorker({
      input: photo,
      model: 'up4x-conservative',
      warmup: BACK_TO_BACK - 1,
      runs: 1,
      out: path.join(tmp, 'ours-serial-4x.png'),
    });
    row([
      'photo 640x480 4x',
      `ours default, job ${BACK_TO_BACK} of ${BACK_TO_BACK} in one process (${serial.info})`,
      sec(serial.times[0]!),
      (serial.times[0]! / photoMp).toFixed(0),
      mb(serial.rssBytes),
      cpuCell(serial.userS, serial.sysS, photoMp),
      '',
      '',
    ]);
    verdict(
      serial.rssBytes <= GIB,
      `peak RSS <= 1 GiB for ${BACK_TO_BACK} 640x480 4x jobs back to back (one process, as a server runs its queue)`,
      mb(serial.rssBytes),
    );

    console.log(
      '\n| image / scale | engine, settings | median time | ms/MP | peak RSS | CPU user / kernel | speed-up | max / mean abs diff (grey levels) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    console.log('\nTargets:');
    for (const v of verdicts) console.log(v);
    console.log(
      `\ntotal ${((performance.now() - started) / 60_000).toFixed(1)} min; load average at the end ${load()}`,
    );
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

const job = childJob<WorkerJob>();
if (job) await worker(job);
else {
  await relaunchAsAvx2IfAsked();
  await main();
}
