// Real-CUGAN upscaling on onnxruntime-node with exact tiled inference.
//
// Tiles carry the full receptive-field halo, so the only thing that differs from
// an untiled run is the squeeze-and-excitation (SE) global means. They are shared
// across tiles by running the graph in passes that stop at each SE block; every
// tile contributes the sum over the part of the feature map it owns, so the means
// are those of the untiled image and tiled output equals untiled output.
//
// cache_mode (Real-CUGAN's meaning, mapped onto this engine):
//   0  exact; tiles run stage by stage and the features crossing each SE sync
//      point are cached as float16 (in RAM up to a budget, then in a temporary
//      file; the SE means are summed from the float32 features, so they stay
//      exact);
//      image-like skip branches (the first U-Net's RGB) are cached too, and the
//      wide ones (64 channels at the image's or the output's resolution) are
//      cached as float16 in the same cache instead of recomputed by later
//      stages, in small jobs and in jobs where they fit skipCacheBytes.
//   1  as 0 with the cached features quantised to uint8 per tensor (smaller,
//      slightly lossy); the skip branches stay float16.
//   2  approximate: SE means from the tiles with odd row and column index only,
//      then one full pass; needs >= 3 tiles per side, otherwise behaves as 1.
//   3  exact without a cache: four recompute passes (pass k stops at SE k) and a
//      final pass; slowest, least memory.
// A job that fits in one tile runs the plain graph once whatever the mode.
// tile_mode: see tiling.ts.
//
// Image coding runs on libvips' threads. Inference does not: onnxruntime-node
// (1.30, 1.31) resolves session.run on the calling thread after a setImmediate, so each
// tile's run (0.01-0.25 s on 2 cores) holds the thread that calls it: the
// service therefore runs each engine on a worker thread of its own
// (server/modules/upscale/threaded-engine.ts). Between tiles the engine yields,
// checks the AbortSignal and reports progress. Jobs run one at a time per
// engine, which bounds memory; callers queue.

import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as ort from 'onnxruntime-node';

import {
  type ConvertedModel,
  OUTPUT_NAME,
  convertModel,
  featInput,
  featOutput,
  halfFeatures,
  keptPrefix,
  meanInput,
  skipPrefix,
  sumOutput,
  withSkips,
} from './converter.js';
import { readCpuinfo, winogradPays } from './cpu-vector-width.js';
import { UpscaleError } from './errors.js';
import { FeatureCache } from './feature-cache.js';
import { freeNow } from './free-now.js';
import { ensureFeatureCacheDir, featureCacheDir } from './feature-cache-dir.js';
import { outOfHalfRange } from './half-range.js';
import { SpillFile } from './spill-file.js';
import { featureData, featureTensor, outputTensor } from './feature-data.js';
import { AlignedPool } from './aligned-pool.js';
import { ALPHA_INPUT, IMAGE_INPUT, OWN_END, OWN_START } from './graph-builder.js';
import { type OutputFormat, decodeImage, encodeImage, upscaleAlpha } from './image-io.js';
import { type ModelInfo, listModelFiles, parseModelName } from './model-list.js';
import { onnxCacheDir, weightsDir } from './model-store.js';
import { ALPHA_RANGE, DEFAULT_ALPHA, isAlphaInRange } from '../../shared/upscale/alpha.js';
import type { SeLevel } from '../../shared/upscale/se-level.js';
import { extractTile, storeTile } from '../../shared/upscale/padding.js';
import {
  type Tile,
  type TileGrid,
  levelSide,
  ownedRange,
  planTiles,
  tileCountsFor,
  tileCountsForBudget,
} from '../../shared/upscale/tiling.js';

export { UpscaleError } from './errors.js';
export type { UpscaleErrorCode } from './errors.js';

export interface UpscaleOptions {
  modelName: string;
  tileMode?: number;
  cacheMode?: number;
  alpha?: number;
  format?: OutputFormat;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export interface UpscaleResult {
  data: Buffer;
  format: OutputFormat;
  width: number;
  height: number;
  scale: number;
  durationMs: number;
  /** how the job was run, for logs and the benchmark */
  tiles: number;
  strategy: 'single' | 'cached' | 'recompute' | 'sampled';
  /** tiles whose final-stage skip branches were cached rather than recomputed */
  skipCachedTiles: number;
  /**
   * a cached job whose maps passed float16's range ran again with its features
   * as float32 (see HalfRangeExceeded)
   */
  float32Features: boolean;
}

export interface UpscaleEngineOptions {
  modelsDir: string;
  /**
   * onnxruntime's intra-op threads, all on one tile at a time. Two tiles at once, each on a
   * worker thread of its own with one thread, kept 2 cores 1.89 busy instead of 1.81 but took as
   * long (2 MP 2x: 17.9-18.5 s against 18.2-18.7 s), peaking at 1176-1200 MiB against 705-724
   * with two sessions' arenas, and with about twice the kernel time (AMD EPYC family 26 masked
   * to AVX2, 2 cores).
   */
  threads?: number;
  maxInputPixels?: number;
  /**
   * peak memory a job may take (default 1 GiB): tiles are sized from it (see
   * tileCountsForBudget and TILE_BYTES_PER_PIXEL), up to PREFERRED_TILE, and
   * an image whose whole graph fits runs untiled
   */
  memoryBudgetBytes?: number;
  /** a fixed largest tile side in input pixels per scale, instead of the budget's tiles */
  maxTile?: Partial<Record<number, number>>;
  /** RAM for cached features before they spill to a temporary file */
  cacheBudgetBytes?: number;
  /**
   * a job whose cached SE features total at most this is "small": it keeps
   * smallJobCacheBytes of cached maps in RAM instead of cacheBudgetBytes, and
   * caches its skip branches
   */
  smallJobFeatureBytes?: number;
  /** RAM for the cached maps of a small job (features and skip branches) */
  smallJobCacheBytes?: number;
  /**
   * a job that is not small still caches its skip branches when they total at
   * most this (float16; past the cache's RAM they go to its temporary file)
   */
  skipCacheBytes?: number;
  /**
   * a job that is not small and whose skip branches pass skipCacheBytes writes them to the
   * direct-I/O file (page-aligned, see aligned-pool.ts) when they total at most this and the
   * file's file system has twice that free; otherwise its final stage recomputes them (0: always)
   */
  streamedSkipBytes?: number;
  /**
   * jobs cache the later stages' wide skip branches (float16, in the feature
   * cache) instead of recomputing them, within the bounds above; on by default
   */
  cacheSkips?: boolean;
  /** onnxruntime's per-session memory arena (on by default; see RUN_OPTS) */
  memArena?: boolean;
  /**
   * the wide 3x3 convolutions as Winograd F(4,3) (converter.ts): by default where they are faster,
   * where onnxruntime runs its AVX2 kernels and on Zen 4's half-width AVX-512 (cpu-vector-width.ts)
   */
  winograd?: boolean;
  /**
   * whether onnxruntime's intra-op threads spin while they wait for work
   * (session.intra_op.allow_spinning, onnxruntime's own default). Off by default:
   * a job's many short stage runs left a spinning thread burning CPU between and
   * inside them for no time saved. 640x480 on 2 threads, sleeping against
   * spinning: wall 0.99x at 2x and 1.01-1.03x at 4x, CPU user 0.85-0.92x, a batch
   * of three 2x jobs as fast with 14 % less CPU (Intel Xeon with AVX-512, and
   * with it masked to AVX2; `npm run bench:upscale-threads`).
   */
  spinning?: boolean;
  /** folder of the feature cache's temporary files (feature-cache-dir.ts's by default) */
  featureCacheDir?: string;
  /** bytes of the feature cache's temporary file the engine keeps from one job to the next (see spill-file.ts) */
  keptSpillBytes?: number;
  /**
   * large jobs that recompute their skip branches spill to a file that bypasses the page cache
   * where the file system allows it (direct I/O, see spill-file.ts and `cached`); on by default
   */
  directSpill?: boolean;
  /**
   * called after every graph run with what it cost, for benchmarks: CPU time and page faults are
   * the whole process's (resourceUsage), so they are the run's own only where nothing else runs
   */
  onRun?: (run: GraphRunCost) => void;
}

/** One onnxruntime run of a job: which graph (model variant) and what it cost. */
export interface GraphRunCost {
  variant: string;
  wallMs: number;
  userMs: number;
  sysMs: number;
  minorFaults: number;
}

export const DEFAULT_MAX_INPUT_PIXELS = 4_200_000;
export const DEFAULT_MEMORY_BUDGET = 1024 * 1024 * 1024;
/**
 * The budget's model of a job's peak RSS: JOB_BASE_BYTES (Node, onnxruntime,
 * the loaded sessions, the decoded image), the feature cache's RAM, the output
 * image twice (the RGB buffer and the encoder's copy), and per padded tile
 * input pixel what the largest stage's onnxruntime working set takes. Fitted
 * to the peak RSS of 640x480 jobs (one per child process, onnxruntime-node
 * 1.30, skip branches cached): 2x 645 MiB with 12 tiles (38k padded px each),
 * 812 with 6 (69k), 954 with 4 (98k), 1310 with 2 (184k); 3x 686 / 907 MiB
 * with 12 / 6 tiles (35k / 65k); 4x 780 / 934 MiB (39k / 70k); untiled (one
 * graph, the whole network's activations at once) 2x 2070 MiB (349k), 3x 3638
 * (339k), 4x 3075 (351k).
 */
const JOB_BASE_BYTES = 250 * 1024 * 1024;
const TILE_BYTES_PER_PIXEL: Record<number, number> = { 2: 4096, 3: 8192, 4: 6656 };
const UNTILED_BYTES_PER_PIXEL: Record<number, number> = { 2: 5632, 3: 11264, 4: 8704 };
/**
 * The tile side (input px) a job uses when the budget allows more. Each tile
 * recomputes a halo of prepad pixels on every side, and at 2x and 4x that
 * halo is what larger tiles save: on an AVX2 server (AMD EPYC family 25,
 * 2 cores, each configuration in its own process, alternating) a 640x480 2x
 * job in 4 tiles of 320x240 took 29.8-32.4 s of CPU user per MP against
 * 33.3-35.9 in 12 of 160 (the one graph untiled: 24.4), peak 806-825 MiB
 * against 579-613; a 2 MP 2x job in 24 tiles took 31.7-32.9 s/MP and
 * 36.1-37.9 s against 35.0-37.8 s/MP and 40.2-49.1 s in 80, peak 811-820
 * MiB against 487-540. A 640x480 4x job in 6 tiles of 256 took 43.6-45.9
 * s/MP against 47.0-48.4 in 9 of 192, peak 861-882 MiB against 745-786.
 * At 3x larger tiles cost fresh pages per stage run (minor faults, about
 * 8 us each on a virtual machine): 3x3 tiles of 216x160 took 370-400k faults
 * and 11.7-12.8 s against 4x3 of 160x160, 180-190k faults and 8.4 s, and 110
 * MiB less (AMD EPYC, AVX-512, 2 cores; `npm run bench:upscale-tiles`).
 * The sides are fitted to the AVX2 server above. Another machine can favour smaller 2x tiles in
 * wall time, for a little more CPU: on a Zen 4 (AMD EPYC family 25 with AVX-512, 2 cores,
 * onnxruntime-node 1.31.1, 5 pairs each) 12 tiles of 160 ran a 640x480 2x job in 3.35-3.43 s
 * against 3.67-3.73 in 4 as a process's first job (CPU user 17.9-18.5 against 18.2-18.5 s/MP), and
 * in 3.62-4.02 s against 3.78-4.32 after a job like it (20.4 against 19.9 s/MP, medians), with
 * 0.2-0.4 s of kernel time against 0.8-1.0 (the larger stage arenas' fresh pages) and a peak of
 * 564-612 MiB against 777-824.
 * The budget still decides: a job whose tiles do not fit gets smaller ones.
 */
const PREFERRED_TILE: Record<number, number> = { 2: 320, 3: 160, 4: 256 };
/**
 * The largest tile side of a large job (its features, as tileCounts estimates
 * them, past smallJobFeatureBytes), whatever PREFERRED_TILE says. The budget's model is fitted to
 * 640x480 jobs and misses what a large job's peak grows by with the image: a
 * 4 MP 2x job in 42 tiles of up to 342x293 peaked at 1062 MiB where the model
 * said 862 (75.9 s, 32.1 s/MP), in 64 tiles of 256 at 804 MiB (85.2 s, 33.7
 * s/MP), in 168 of 160 at 557 MiB (84.9 s, 35.4 s/MP); a 2 MP 2x job in 20
 * tiles peaked at 905 MiB, in 32 of 256 at 782 MiB (38.9 s, 33.8 s/MP). A
 * 2 MP 4x job in 32 tiles of 204x306: 913 MiB (AMD EPYC, AVX2, 2 cores). With 320 here a
 * 2 MP 2x job ran in 20 tiles, slower (20.4-21.2 s against 18.6-19.8 s in 32), peaking at
 * 1049-1071 MiB against 721-724, with 3.0-3.3 s of kernel time against 1.2 (AMD EPYC family 26
 * masked to AVX2, 2 cores). Smaller is no faster either: in 63 tiles of 192 it took 23.5 / 23.8 /
 * 25.5 s against 23.5 / 22.4 / 24.2 s in 32, paired (AMD EPYC family 25 masked to AVX2, 2 cores).
 */
const LARGE_JOB_TILE = 256;
/**
 * The tile sides of cache modes 2 and 3, whose passes run the one graph on
 * each tile (every layer's activations at once): the staged path's sides
 * above would overrun the budget there (640x480 2x in cache_mode 3: 4 tiles
 * peaked at 1295 MiB, 12 tiles of 160 at 579 MiB; AMD EPYC, 2 cores).
 */
const ONE_GRAPH_TILE: Record<number, number> = { 2: 160, 3: 160, 4: 192 };
/**
 * Cached features kept in RAM before they go to a temporary file. Small on
 * purpose: a 4 MP 4x job peaked at 1149 MB RSS with 256 MiB here and 862 MB
 * with 0 (the file's pages live in the OS page cache, not in this process,
 * and reading them back costs far less than the convolutions). Small jobs
 * still stay entirely in memory. What the budget's model leaves beside a large
 * job's tiles is no spare RAM either: a 2 MP 2x job (565 MiB peak with this)
 * given half of it, 290 MiB, peaked at 1157-1164 MiB RSS when a 320x240 job
 * had run before it in the process (875-908 MiB with this), since memory an
 * earlier job freed stays with the process (AMD EPYC family 26, 2 cores).
 */
const DEFAULT_CACHE_BUDGET = 32 * 1024 * 1024;
/**
 * Jobs whose SE features come to at most this much (about 0.35 MP at 4x, 0.4 MP
 * at 2x) are small: writing and reading back their features cost a 640x480 2x
 * job about 0.2 s (of 2.6 s), so they keep DEFAULT_SMALL_JOB_CACHE of their
 * cached maps in RAM, and in 4x they cache their skip branches. Larger jobs
 * keep DEFAULT_CACHE_BUDGET in RAM and recompute the skip branches unless they
 * fit DEFAULT_SKIP_CACHE_BYTES: a 4 MP 4x job that cached them wrote and read
 * back 3 GB of them, which cost 11 s of kernel time for 15 s of inference
 * saved and made it 4 s slower overall. Counted as float16, as the stages
 * pass the features on: the same jobs as 384 MiB of them as float32.
 */
const DEFAULT_SMALL_JOB_FEATURES = 192 * 1024 * 1024;
/** bytes per value of a cached SE feature map (the stages pass them on as float16) */
const FEATURE_BYTES = 2;
/**
 * RAM for a small job's cached maps; the rest goes to the temporary file. A
 * 640x480 4x job's features and skip branches come to about 650 MiB: with
 * 384 MiB of them in RAM it peaked at 994 MiB RSS, with 320 MiB at 874-963,
 * with 256 MiB at 827-874 in the same time (2.8-3.3 s here). A 640x480 2x
 * job's features (320 MiB) then spill a fifth, for no measurable time.
 * Less RAM here is the lever should the 4x peak pass the budget, with the
 * tiles kept: in the same 6 tiles (maxTile 256) 64 MiB peaked at 681-700 MiB
 * against 842-864, for 2-6 % more wall time. Left to the budget, less RAM
 * buys larger tiles instead (192 MiB: 5 tiles, 945-970 MiB), and larger
 * tiles cost faults (4 tiles of 320: 0.8-1.0 s of kernel time against
 * 0.3-0.5, 1-14 % slower) (Intel Xeon family 6 model 167 masked to AVX2,
 * 2 cores; 2 jobs a process, 3 processes each).
 */
const DEFAULT_SMALL_JOB_CACHE = 256 * 1024 * 1024;
/**
 * A job that is not small caches its skip branches when they come to at most
 * this; past the cache's RAM they are written to its temporary file and read
 * back by the final stage. A 640x480 3x job (661 MiB of features, 389 MiB of
 * skip branches) then ran in 14.9 s instead of 16.1 and 10 % less CPU, at
 * 705 MiB RSS. A 2 MP 2x job (1324 MiB of them) was not faster: the kernel's
 * writing back of the file took the CPU that the final stage saved (AMD EPYC,
 * AVX2, 2 cores; medians of 3 and 2 rounds). Its fresh file pages are what
 * cost: with the spill file kept at 2.5 GiB (its 1.8 GiB all kept pages) it
 * ran 6 % faster than recomputing them (median of 5 pairs, 0.86-1.04; kernel
 * time 0.9 s), but the first such job of a process 7 % slower (kernel time
 * 3.1 s against 0.9), and that first job is what `npm run bench:upscale`
 * times (1.13x the reference against 1.21x; AMD EPYC family 26, AVX-512, 2 cores).
 * Past this bound a large job streams them through the direct-I/O file instead
 * (streamedSkipBytes), which costs no fresh page-cache pages.
 */
const DEFAULT_SKIP_CACHE_BYTES = 512 * 1024 * 1024;
/**
 * The spill file's bytes kept between jobs (disk space and reclaimable page
 * cache, not this process's memory): all of a 640x480 job's (about 300 MB at
 * 4x, 880 MB at 3x, whose features do not fit a small job's RAM) and the first
 * gigabyte of a larger one's. Over kept pages a 640x480 4x job wrote its cache
 * in 0.1 s instead of 1.1-1.3 s, a 3x job in 0.45-0.5 s instead of 1.35-1.7 s
 * (Intel Xeon, AVX-512, 2 cores).
 */
const DEFAULT_KEPT_SPILL_BYTES = 1024 * 1024 * 1024;
/**
 * The most skip-branch bytes a large job writes to the direct-I/O file instead of recomputing
 * them: all of a 4.2 MP 4x job's (the largest input), whose spill file reached 6 GB with its
 * features. Instead of recomputing them, a 2 MP 2x job took 19.2-19.8 s against 20.3-20.7 s and a
 * 4 MP 4x job 62.9-66.4 s against 71.4 (AMD EPYC family 26 masked to AVX2, 2 cores).
 */
const DEFAULT_STREAMED_SKIP_BYTES = 8 * 1024 * 1024 * 1024;
/**
 * Page-aligned buffers a streamed job keeps for reuse (aligned-pool.ts), a few tiles' maps: a
 * buffer dropped is fresh pages for the next. A 4 MP 4x job kept 48 / 96 / 192 MiB of them: 68.1
 * / 66.5 / 63.1 s, 11.9 / 11.2 / 6.9 s of kernel time, peak 817 / 898 / 932 MiB (AMD EPYC family
 * 26 masked to AVX2, 2 cores).
 */
const ALIGNED_POOL_BYTES = 192 * 1024 * 1024;

/**
 * Sessions use onnxruntime's memory arena, shrunk after every run. Without an
 * arena each large tensor is a fresh mmap, and on this virtual machine every
 * new 4 KiB page costs a fault (about 8 us): a 640x480 4x job took 1.0 M faults
 * and twice the kernel time, a 4 MP 4x job 15 M faults. Shrinking after each
 * run returns the arena's growth, so idle sessions do not keep their peak.
 * Huge pages do not pay instead: under GLIBC_TUNABLES=glibc.malloc.hugetlb=1 a
 * 2 MP 2x job took 18 k faults instead of 235 k, but 1.5-1.8 s of kernel time
 * instead of 1.0-1.1 and no less wall (AMD EPYC family 26, 2 cores, 2 pairs).
 */
const RUN_OPTS: ort.InferenceSession.RunOptions = {
  extra: { memory: { enable_memory_arena_shrinkage: 'cpu:0' } },
};

interface LoadedModel {
  info: ConvertedModel;
  sessions: Map<string, Promise<ort.InferenceSession>>;
}

export class UpscaleEngine {
  private readonly modelsDir: string;
  private readonly threads: number;
  private readonly maxInputPixels: number;
  private readonly maxTile: Partial<Record<number, number>>;
  private readonly memoryBudget: number;
  private readonly cacheBudget: number;
  private readonly smallJobFeatures: number;
  private readonly smallJobCache: number;
  private readonly cacheSkips: boolean;
  private readonly skipCacheBytes: number;
  private readonly streamedSkipBytes: number;
  private readonly memArena: boolean;
  private readonly winograd: boolean;
  private readonly spinning: boolean;
  private readonly featureCacheDir: string | undefined;
  /** the feature cache's temporary file, lent to each job in turn (jobs run one at a time) */
  private readonly spill: SpillFile;
  /** the one large jobs stream their SE features through: direct I/O, nothing kept (see `cached`) */
  private readonly streamSpill: SpillFile;
  private readonly onRun: ((run: GraphRunCost) => void) | undefined;
  private readonly models = new Map<string, Promise<LoadedModel>>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(opts: UpscaleEngineOptions) {
    this.modelsDir = opts.modelsDir;
    this.threads = opts.threads ?? 2;
    this.maxInputPixels = opts.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
    this.maxTile = { ...opts.maxTile };
    this.memoryBudget = opts.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET;
    this.cacheBudget = opts.cacheBudgetBytes ?? DEFAULT_CACHE_BUDGET;
    this.smallJobFeatures = opts.smallJobFeatureBytes ?? DEFAULT_SMALL_JOB_FEATURES;
    this.smallJobCache = opts.smallJobCacheBytes ?? DEFAULT_SMALL_JOB_CACHE;
    this.cacheSkips = opts.cacheSkips ?? true;
    this.skipCacheBytes = opts.skipCacheBytes ?? DEFAULT_SKIP_CACHE_BYTES;
    this.streamedSkipBytes = opts.streamedSkipBytes ?? DEFAULT_STREAMED_SKIP_BYTES;
    this.memArena = opts.memArena ?? true;
    this.winograd = opts.winograd ?? winogradPays(readCpuinfo());
    this.spinning = opts.spinning ?? false;
    this.featureCacheDir = opts.featureCacheDir;
    this.spill = new SpillFile(opts.keptSpillBytes ?? DEFAULT_KEPT_SPILL_BYTES, opts.featureCacheDir);
    this.streamSpill = new SpillFile(0, opts.featureCacheDir, opts.directSpill ?? true);
    this.onRun = opts.onRun;
  }

  listModels(): Promise<ModelInfo[]> {
    return listModelFiles(this.modelsDir);
  }

  upscale(input: Buffer, opts: UpscaleOptions): Promise<UpscaleResult> {
    const job = this.queue.then(() => this.run(input, opts));
    this.queue = job.catch(() => undefined);
    return job;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    for (const m of this.models.values()) {
      const loaded = await m.catch(() => undefined);
      if (!loaded) continue;
      for (const s of loaded.sessions.values()) await (await s.catch(() => undefined))?.release();
    }
    this.models.clear();
    await this.spill.close();
    await this.streamSpill.close();
  }

  /** Convert (cached on disk) and load a model; exposed so a server can warm up. */
  async loadModel(name: string): Promise<ConvertedModel> {
    return (await this.model(name)).info;
  }

  private model(name: string): Promise<LoadedModel> {
    const key = name;
    let m = this.models.get(key);
    if (!m) {
      const dir = weightsDir(this.modelsDir);
      const paramPath = path.join(dir, `${name}.param`);
      const binPath = path.join(dir, `${name}.bin`);
      m = convertModel(paramPath, binPath, onnxCacheDir(this.modelsDir), { winograd: this.winograd }).then((info) => ({
        info,
        sessions: new Map(),
      }));
      this.models.set(key, m);
      m.catch(() => this.models.delete(key));
    }
    return m;
  }

  private session(model: LoadedModel, variant: string): Promise<ort.InferenceSession> {
    let s = model.sessions.get(variant);
    if (!s) {
      s = this.openSession(model, variant);
      model.sessions.set(variant, s);
    }
    return s;
  }

  /** A new, uncached session; the caller releases it. */
  private openSession(model: LoadedModel, variant: string): Promise<ort.InferenceSession> {
    const file = model.info.variants[variant];
    if (!file) throw new UpscaleError('engine_error', `model ${model.info.name} has no variant ${variant}`);
    return ort.InferenceSession.create(path.join(model.info.dir, file), {
      intraOpNumThreads: this.threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      enableCpuMemArena: this.memArena,
      // The memory pattern planner held about 140 MB more at the peak for no
      // measurable speed (4 MP 4x: 991 vs 850 MB; 640x480 4x: 1375 vs 1160 MB).
      enableMemPattern: false,
      extra: { session: { intra_op: { allow_spinning: this.spinning ? '1' : '0' } } },
    });
  }

  private validate(
    opts: UpscaleOptions,
  ): Required<Pick<UpscaleOptions, 'tileMode' | 'cacheMode' | 'alpha' | 'format'>> {
    const tileMode = opts.tileMode ?? 0;
    const cacheMode = opts.cacheMode ?? 0;
    const alpha = opts.alpha ?? DEFAULT_ALPHA;
    const format = opts.format ?? 'png';
    if (!Number.isInteger(tileMode) || tileMode < 0 || tileMode > 4) {
      throw new UpscaleError('invalid_parameter', 'tile_mode must be an integer from 0 to 4');
    }
    if (!Number.isInteger(cacheMode) || cacheMode < 0 || cacheMode > 3) {
      throw new UpscaleError('invalid_parameter', 'cache_mode must be an integer from 0 to 3');
    }
    if (!isAlphaInRange(alpha)) {
      throw new UpscaleError(
        'invalid_parameter',
        `alpha must be between ${ALPHA_RANGE.min} and ${ALPHA_RANGE.max}`,
      );
    }
    if (!['png', 'jpeg', 'webp'].includes(format))
      throw new UpscaleError('invalid_parameter', 'format must be png, jpeg or webp');
    return { tileMode, cacheMode, alpha, format };
  }

  private async run(input: Buffer, opts: UpscaleOptions): Promise<UpscaleResult> {
    const started = performance.now();
    if (this.closed) throw new UpscaleError('engine_error', 'engine is closed');
    const p = this.validate(opts);
    const known = parseModelName(opts.modelName);
    if (!known || !(await this.listModels()).some((m) => m.name === opts.modelName)) {
      throw new UpscaleError('unknown_model', `unknown model ${opts.modelName}`);
    }
    const checkAbort = (): void => {
      if (opts.signal?.aborted) throw new UpscaleError('cancelled', 'upscale cancelled');
    };
    checkAbort();
    const img = await decodeImage(input, this.maxInputPixels);
    checkAbort();
    const model = await this.model(opts.modelName);
    const { scale, align } = model.info.geometry;
    const counts = this.tileCounts(p.tileMode, p.cacheMode, img.width, img.height, model.info);
    const grid = planTiles(img.width, img.height, align, counts.cols, counts.rows);
    const outW = img.width * scale;
    const outH = img.height * scale;
    const out = Buffer.alloc(outW * outH * 3);
    const ctx: JobContext = {
      model,
      img,
      grid,
      out,
      outW,
      outH,
      alpha: p.alpha,
      opts,
      units: 0,
      reported: 0,
      done: 0,
      checkAbort,
    };
    let strategy: UpscaleResult['strategy'];
    let skipCachedTiles = 0;
    let float32Features = false;
    if (grid.tiles.length === 1) {
      strategy = 'single';
      ctx.units = 1;
      await this.finalPass(ctx, grid.tiles, 'full', undefined);
    } else if (p.cacheMode === 3) {
      strategy = 'recompute';
      await this.recompute(ctx, grid.tiles);
    } else if (p.cacheMode === 2 && grid.cols.length >= 3 && grid.rows.length >= 3) {
      strategy = 'sampled';
      await this.sampled(ctx);
    } else {
      strategy = 'cached';
      const quantise = p.cacheMode !== 0;
      const cachedRun = async (half: boolean): Promise<number> => {
        try {
          return await this.cached(ctx, quantise, half, true);
        } catch (e) {
          if (!(e instanceof SkipSpillFailed)) throw e;
          return this.cached(ctx, quantise, half, false);
        }
      };
      try {
        skipCachedTiles = await cachedRun(true);
      } catch (e) {
        if (!(e instanceof HalfRangeExceeded)) throw e;
        float32Features = true;
        skipCachedTiles = await cachedRun(false);
      }
    }
    opts.onProgress?.(1);
    const alphaOut = img.alpha ? await upscaleAlpha(img.alpha, img.width, img.height, scale) : undefined;
    checkAbort();
    let data: Buffer;
    try {
      data = await encodeImage(out, outW, outH, p.format, alphaOut, img.icc);
    } finally {
      // The raw result (201 MB at 4 MP 4x) freed now: left to the collector it was still held
      // while the next job made its own, and two 4 MP 4x jobs in a row peaked past 1 GiB.
      freeNow(out);
    }
    return {
      data,
      format: p.format,
      width: outW,
      height: outH,
      scale,
      durationMs: Math.round(performance.now() - started),
      tiles: grid.tiles.length,
      strategy,
      skipCachedTiles,
      float32Features,
    };
  }

  /** The tile grid's counts: from a fixed maxTile when one is set, else from the memory budget. */
  private tileCounts(
    mode: number,
    cacheMode: number,
    width: number,
    height: number,
    info: ConvertedModel,
  ): { cols: number; rows: number } {
    const { scale, align, prepad } = info.geometry;
    const cap = this.maxTile[scale];
    if (cap !== undefined) return tileCountsFor(mode, width, height, align, cap);
    const outBytes = 2 * width * height * scale * scale * 3;
    // the RAM the feature cache will keep: a small job's (see `cached`) or a large one's;
    // its features estimated without the tiles' overlap
    const features = info.se.reduce((sum, blk, k) => {
      const lv = info.levels[k]!;
      return (
        sum + blk.channels * FEATURE_BYTES * levelSide(width, prepad, lv) * levelSide(height, prepad, lv)
      );
    }, 0);
    const small = features <= this.smallJobFeatures;
    const cacheRam = small ? this.smallJobCache : this.cacheBudget;
    const perTile = TILE_BYTES_PER_PIXEL[scale] ?? Math.max(...Object.values(TILE_BYTES_PER_PIXEL));
    const perUntiled = UNTILED_BYTES_PER_PIXEL[scale] ?? Math.max(...Object.values(UNTILED_BYTES_PER_PIXEL));
    const free = this.memoryBudget - JOB_BASE_BYTES - outBytes;
    const sides = cacheMode >= 2 ? ONE_GRAPH_TILE : PREFERRED_TILE;
    const preferred = Math.min(sides[scale] ?? 192, small ? Infinity : LARGE_JOB_TILE) + 2 * prepad;
    return tileCountsForBudget(
      mode,
      width,
      height,
      align,
      prepad,
      Math.max(0, Math.min(preferred * preferred, (free - cacheRam) / perTile)),
      Math.max(0, free / perUntiled),
    );
  }

  // ---- passes -----------------------------------------------------------------

  /** One graph run, its cost reported to onRun when one is set. */
  private async runGraph(
    session: ort.InferenceSession,
    variant: string,
    feeds: Record<string, ort.Tensor>,
    /** outputs to write into given tensors (the others null: onnxruntime's own), all of them by default */
    fetches?: Record<string, ort.Tensor | null>,
  ): Promise<ort.InferenceSession.OnnxValueMapType> {
    const run = (): Promise<ort.InferenceSession.OnnxValueMapType> =>
      fetches ? session.run(feeds, fetches, RUN_OPTS) : session.run(feeds, RUN_OPTS);
    if (!this.onRun) return run();
    const before = process.resourceUsage();
    const started = performance.now();
    const res = await run();
    const after = process.resourceUsage();
    this.onRun({
      variant,
      wallMs: performance.now() - started,
      userMs: (after.userCPUTime - before.userCPUTime) / 1000,
      sysMs: (after.systemCPUTime - before.systemCPUTime) / 1000,
      minorFaults: after.minorPageFault - before.minorPageFault,
    });
    return res;
  }

  private tileInput(ctx: JobContext, t: Tile): ort.Tensor {
    const P = ctx.model.info.geometry.prepad;
    const w = t.w + 2 * P;
    const h = t.h + 2 * P;
    const data = extractTile(ctx.img.rgb, ctx.img.width, ctx.img.height, t.x - P, t.y - P, w, h);
    return new ort.Tensor('float32', data, [1, 3, h, w]);
  }

  private async step(ctx: JobContext): Promise<void> {
    ctx.done++;
    // a job that runs again (float16's range, a full disk) adds units: its bar never goes back
    ctx.reported = Math.max(ctx.reported, Math.min(0.99, ctx.done / ctx.units));
    ctx.opts.onProgress?.(ctx.reported);
    await nextTurn(); // let I/O callbacks run between tiles
    ctx.checkAbort();
  }

  private meanFeeds(means: Float32Array[], count: number): Record<string, ort.Tensor> {
    const feeds: Record<string, ort.Tensor> = {};
    for (let k = 0; k < count; k++)
      feeds[meanInput(k)] = new ort.Tensor('float32', means[k]!, [1, means[k]!.length, 1, 1]);
    return feeds;
  }

  /** The range of SE level k's map this tile owns, as model inputs, and its area. */
  private ownedFeeds(
    ctx: JobContext,
    k: number,
    t: Tile,
  ): { feeds: Record<string, ort.Tensor>; area: number } {
    const lv = ctx.model.info.levels[k]!;
    const P = ctx.model.info.geometry.prepad;
    const [r0, r1] = ownedRange(ctx.grid.rows, t.row, ctx.grid.coreH, P, lv);
    const [c0, c1] = ownedRange(ctx.grid.cols, t.col, ctx.grid.coreW, P, lv);
    return {
      feeds: {
        [OWN_START]: new ort.Tensor('int64', BigInt64Array.of(BigInt(r0), BigInt(c0)), [2]),
        [OWN_END]: new ort.Tensor('int64', BigInt64Array.of(BigInt(r1), BigInt(c1)), [2]),
      },
      area: (r1 - r0) * (c1 - c0),
    };
  }

  /** Adds a tile's owned per-channel sums (the model's `se_sum` output) to `acc`. */
  private addSums(k: number, res: ort.InferenceSession.OnnxValueMapType, acc: Float64Array): void {
    const sums = res[sumOutput]!.data as Float32Array;
    if (sums.length !== acc.length)
      throw new UpscaleError('engine_error', `SE level ${k}: ${sums.length} sums`);
    for (let c = 0; c < acc.length; c++) acc[c]! += sums[c]!;
  }

  /** The features a stage returns must have the size the tile plan expects. */
  private checkLevel(ctx: JobContext, k: number, t: Tile, feat: ort.Tensor): void {
    const lv = ctx.model.info.levels[k]!;
    const P = ctx.model.info.geometry.prepad;
    const [, , fh, fw] = feat.dims as [number, number, number, number];
    if (fh !== levelSide(t.h, P, lv) || fw !== levelSide(t.w, P, lv)) {
      throw new UpscaleError('engine_error', `SE level ${k}: unexpected feature map ${fw}x${fh}`);
    }
  }

  /** A skip branch a stage returns must have the size skipBytes planned the job with. */
  private checkSkip(ctx: JobContext, t: Tile, name: string, skip: ort.Tensor): void {
    const law = ctx.model.info.skips.find((x) => x.name === name);
    const P = ctx.model.info.geometry.prepad;
    const [, c, h, w] = skip.dims as [number, number, number, number];
    if (!law || c !== law.channels || h !== levelSide(t.h, P, law) || w !== levelSide(t.w, P, law))
      throw new UpscaleError('engine_error', `skip branch ${name}: unexpected map ${c}x${w}x${h}`);
  }

  private async finalPass(
    ctx: JobContext,
    tiles: Tile[],
    variant: string,
    means: Float32Array[] | undefined,
    cache?: FeatureCache,
    /** runs every tile instead of the model's shared session */
    own?: ort.InferenceSession,
    /** read each tile's cached maps while the tile before it runs */
    ahead = false,
  ): Promise<void> {
    const { scale } = ctx.model.info.geometry;
    // The 4x graph ends before Real-CUGAN's residual: add the nearest-upsampled input.
    const residual = scale === 4 ? { rgb: ctx.img.rgb, width: ctx.img.width, scale } : undefined;
    const session = own ?? (await this.session(ctx.model, variant));
    const feedsOf = async (t: Tile): Promise<Record<string, ort.Tensor>> => {
      const feeds: Record<string, ort.Tensor> = {};
      const reads: Array<Promise<void>> = [];
      for (const name of session.inputNames) {
        if (name === IMAGE_INPUT) feeds[name] = this.tileInput(ctx, t);
        else if (name === ALPHA_INPUT)
          feeds[name] = new ort.Tensor('float32', Float32Array.of(ctx.alpha), []);
        else if (name.startsWith('se_mean_'))
          Object.assign(feeds, this.meanFeeds(means!, Number(name.slice(8)) + 1));
        else if (isCached(name) && cache) reads.push(cachedFeed(feeds, cache, t, name));
      }
      await Promise.all(reads);
      for (const name of session.inputNames) {
        if (!feeds[name]) throw new UpscaleError('engine_error', `no value for model input ${name}`);
      }
      return feeds;
    };
    let next: Promise<Record<string, ort.Tensor>> | undefined;
    for (let i = 0; i < tiles.length; i++) {
      const t = tiles[i]!;
      const feeds = await (next ?? feedsOf(t));
      next = ahead && i + 1 < tiles.length ? readAhead(feedsOf(tiles[i + 1]!)) : undefined;
      const res = await this.runGraph(session, variant, feeds);
      releaseFeeds(feeds, cache);
      const o = res[OUTPUT_NAME]!;
      const [, , oh, ow] = o.dims as [number, number, number, number];
      if (ow !== t.w * scale || oh !== t.h * scale)
        throw new UpscaleError('engine_error', `unexpected output ${ow}x${oh}`);
      storeTile(
        o.data as Float32Array,
        ow,
        oh,
        ctx.out,
        ctx.outW,
        ctx.outH,
        t.x * scale,
        t.y * scale,
        residual,
      );
      freeNow(o.data as Float32Array);
      o.dispose();
      await this.step(ctx);
    }
  }

  /** Exact means without a cache: pass k runs every tile up to SE block k. */
  private async recomputeMeans(ctx: JobContext, tiles: Tile[]): Promise<Float32Array[]> {
    const means: Float32Array[] = [];
    for (const blk of ctx.model.info.se) {
      const k = blk.index;
      const session = await this.session(ctx.model, `probe-${k}`);
      const acc = new Float64Array(blk.channels);
      let area = 0;
      for (const t of tiles) {
        const owned = this.ownedFeeds(ctx, k, t);
        const feeds: Record<string, ort.Tensor> = {
          [IMAGE_INPUT]: this.tileInput(ctx, t),
          ...this.meanFeeds(means, k),
          ...owned.feeds,
        };
        const res = await this.runGraph(session, `probe-${k}`, pick(feeds, session.inputNames));
        this.addSums(k, res, acc);
        area += owned.area;
        await this.step(ctx);
      }
      means.push(Float32Array.from(acc, (s) => s / area));
    }
    return means;
  }

  private async recompute(ctx: JobContext, tiles: Tile[]): Promise<void> {
    ctx.units = tiles.length * (ctx.model.info.se.length + 1);
    const means = await this.recomputeMeans(ctx, tiles);
    await this.finalPass(ctx, tiles, 'shared', means);
  }

  private async sampled(ctx: JobContext): Promise<void> {
    const sample = ctx.grid.tiles.filter((t) => t.row % 2 === 1 && t.col % 2 === 1);
    ctx.units = sample.length * ctx.model.info.se.length + ctx.grid.tiles.length;
    const means = await this.recomputeMeans(ctx, sample);
    await this.finalPass(ctx, ctx.grid.tiles, 'shared', means);
  }

  /**
   * Exact means with each convolution run once: stage k consumes the features
   * cached at earlier sync points. Returns the number of tiles whose skip
   * branches were cached. `half`: the stages pass the features on as float16
   * (and may cache the skip branches); throws HalfRangeExceeded when a map to
   * cache is past float16's range, before the final stage writes any output.
   * `streamSkips`: a large job may write its skip branches to the direct file
   * (see streamedSkipBytes); throws SkipSpillFailed when that file's disk fills up.
   */
  private async cached(
    ctx: JobContext,
    quantise: boolean,
    half: boolean,
    streamSkips: boolean,
  ): Promise<number> {
    const n = ctx.model.info.se.length;
    const tiles = ctx.grid.tiles;
    // a second run (after HalfRangeExceeded or SkipSpillFailed) goes on from the first one's progress
    ctx.units = ctx.done + tiles.length * (n + 1);
    const stageName = (k: number): string => (half ? halfStage(k) : `stage-${k}`);
    // A cached map is dropped after the last stage that reads it (skip
    // branches, read by the final stage, live until the job ends).
    const lastUse = new Map<string, number>();
    for (let k = 0; k <= n; k++)
      for (const name of ctx.model.info.inputs[stageName(k)] ?? []) lastUse.set(name, k);
    const small = this.cachedFeatureBytes(ctx, lastUse, quantise) <= this.smallJobFeatures;
    // Skip branches: every stage that computes some also returns them and every
    // stage that would recompute them takes them (the `+skips` variants), or none does.
    const variants = ctx.model.info.variants;
    const skipBytes = this.skipBytes(ctx);
    const skipsInKeptFile = small || skipBytes <= this.skipCacheBytes;
    const withSkip =
      half &&
      this.cacheSkips &&
      Array.from({ length: n + 1 }, (_, k) => variants[`${halfStage(k)}${withSkips}`]).some(Boolean) &&
      (skipsInKeptFile ||
        (streamSkips && skipBytes <= this.streamedSkipBytes && (await this.diskHolds(2 * skipBytes))));
    const stageVariant = Array.from({ length: n + 1 }, (_, k) =>
      withSkip && variants[`${stageName(k)}${withSkips}`] ? `${stageName(k)}${withSkips}` : stageName(k),
    );
    // A large job streams its maps through the direct-I/O file and reads each tile's maps ahead:
    // its SE features, and its skip branches when they pass the kept file's bound but fit
    // streamedSkipBytes. onnxruntime writes them into page-aligned arrays, which go to the disk and
    // come back from it in place while a graph run goes on (aligned-pool.ts). Jobs whose skip
    // branches fit the kept file (the small ones, a 640x480 3x one) spill to its pages, warm after
    // the first such job: a 640x480 3x job after one like it took 5.7-6.1 s that way against
    // 5.9-6.3 s direct (AMD EPYC family 26 masked to AVX2, 2 cores).
    const streamed = !small && !(withSkip && skipsInKeptFile);
    const pool = streamed && half ? new AlignedPool(ALIGNED_POOL_BYTES) : undefined;
    const cache = new FeatureCache(
      small ? this.smallJobCache : this.cacheBudget,
      quantise,
      this.featureCacheDir,
      streamed ? this.streamSpill : this.spill,
      pool,
    );
    const put = async (t: Tile, name: string, tensor: ort.Tensor): Promise<void> => {
      const data = featureData(tensor);
      if (data instanceof Uint16Array && outOfHalfRange(data)) throw new HalfRangeExceeded(name);
      await cache.put(`${t.row}:${t.col}:${name}`, data, tensor.dims as number[], {
        exact: name.startsWith(skipPrefix),
      });
    };
    for (let k = 0; k <= n; k++)
      for (const name of ctx.model.info.inputs[stageVariant[k]!] ?? []) lastUse.set(name, k);
    // Each stage runs on a session of its own, released after the stage, so
    // only one stage's arena is ever alive: with the five shared sessions'
    // arenas a 4 MP 4x job peaked at 1.6 GB, and a 640x480 4x job that caches
    // its skip branches at 1086 MiB against 980 MiB this way; without arenas a
    // 4 MP 4x job took 15 M page faults and 202 s, this way 0.4 M and 132 s.
    // Opening a stage's session costs a few milliseconds. Each stage's first run touches its new
    // arena's pages (in a 640x480 2x job 20-90 k faults and 30-110 ms more than its later runs),
    // but one session for all the stages (their graphs as the branches of If nodes, each output
    // bit for bit the same) kept every stage's maps in its one arena: 640x480 jobs ran 4-7 %
    // faster and peaked 40 (4x) to 170 MiB (2x, at 939-961 MiB) higher, a 4 MP 4x job ran no
    // faster and peaked 52 MiB higher (AMD EPYC family 25, AVX-512, 2 cores).
    let scoped: ort.InferenceSession | undefined;
    const stageSession = async (k: number): Promise<ort.InferenceSession> => {
      await scoped?.release();
      scoped = undefined;
      scoped = await this.openSession(ctx.model, stageVariant[k]!);
      return scoped;
    };
    try {
      const means: Float32Array[] = [];
      for (let k = 0; k < n; k++) {
        const blk = ctx.model.info.se[k]!;
        const acc = new Float64Array(blk.channels);
        let area = 0;
        const session = await stageSession(k);
        const feedsOf = (t: Tile) => this.stageFeeds(ctx, t, session, means, cache);
        let next: Promise<Record<string, ort.Tensor>> | undefined;
        for (let i = 0; i < tiles.length; i++) {
          const t = tiles[i]!;
          const owned = this.ownedFeeds(ctx, k, t);
          const feeds = { ...(await (next ?? feedsOf(t))), ...owned.feeds };
          // the next tile's cached maps are read while this tile's graph runs
          next = streamed && i + 1 < tiles.length ? readAhead(feedsOf(tiles[i + 1]!)) : undefined;
          const own = pool ? this.alignedOutputs(ctx, k, t, session, lastUse, pool) : {};
          const res = await this.runGraph(
            session,
            stageVariant[k]!,
            feeds,
            pool ? fetchesOf(session, own) : undefined,
          );
          releaseFeeds(feeds, cache);
          for (const [name, tensor] of Object.entries(own)) freeCopy(res[name], tensor);
          const feat = own[featOutput] ?? res[featOutput]!;
          this.checkLevel(ctx, k, t, feat);
          this.addSums(k, res, acc);
          area += owned.area;
          const key = featInput(k);
          if ((lastUse.get(key) ?? -1) > k) await put(t, key, feat);
          for (const name of session.outputNames) {
            const kept = own[name] ?? res[name]!;
            if (name.startsWith(skipPrefix)) this.checkSkip(ctx, t, name, kept);
            if (isCached(name)) await put(t, name, kept);
          }
          for (const [name, last] of lastUse)
            if (last === k && isCached(name)) await cache.delete(`${t.row}:${t.col}:${name}`);
          await this.step(ctx);
        }
        means.push(Float32Array.from(acc, (s) => s / area));
      }
      await this.finalPass(ctx, tiles, stageVariant[n]!, means, cache, await stageSession(n), streamed);
      return withSkip ? tiles.length : 0;
    } catch (e) {
      if (withSkip && streamed && isDiskFull(e)) throw new SkipSpillFailed(e);
      throw e;
    } finally {
      await scoped?.release();
      await cache.close();
    }
  }

  /**
   * Stage k's outputs the cache keeps whole (the SE features a later stage reads, the skip
   * branches), as tensors over page-aligned arrays of the pool for onnxruntime to write into.
   */
  private alignedOutputs(
    ctx: JobContext,
    k: number,
    t: Tile,
    session: ort.InferenceSession,
    lastUse: Map<string, number>,
    pool: AlignedPool,
  ): Record<string, ort.Tensor> {
    const P = ctx.model.info.geometry.prepad;
    const own: Record<string, ort.Tensor> = {};
    const aligned = (channels: number, law: SeLevel): ort.Tensor => {
      const dims = [1, channels, levelSide(t.h, P, law), levelSide(t.w, P, law)];
      const values = channels * dims[2]! * dims[3]!;
      return outputTensor(new Uint16Array(pool.take(values * FEATURE_BYTES), 0, values), dims);
    };
    for (const name of session.outputNames) {
      if (name === featOutput && (lastUse.get(featInput(k)) ?? -1) > k)
        own[name] = aligned(ctx.model.info.se[k]!.channels, ctx.model.info.levels[k]!);
      const skip = ctx.model.info.skips.find((x) => x.name === name);
      if (skip) own[name] = aligned(skip.channels, skip);
    }
    return own;
  }

  /** The skip branches' bytes (float16) over every tile, were the job to cache them. */
  private skipBytes(ctx: JobContext): number {
    const P = ctx.model.info.geometry.prepad;
    let bytes = 0;
    for (const skip of ctx.model.info.skips)
      for (const t of ctx.grid.tiles)
        bytes += skip.channels * levelSide(t.h, P, skip) * levelSide(t.w, P, skip) * 2;
    return bytes;
  }

  /**
   * Whether the file system of the feature cache's folder has `bytes` free for this process
   * (false when that cannot be told): a job asks for twice what it will write, leaving room for
   * its SE features and for other jobs.
   */
  private async diskHolds(bytes: number): Promise<boolean> {
    // the job before may still be removing its streamed file (spill-file.ts's `retire`): its bytes
    // are free once it is gone, and counted as taken before
    await this.streamSpill.removed();
    try {
      const dir = await ensureFeatureCacheDir(this.featureCacheDir ?? featureCacheDir());
      const fsStats = await statfs(dir);
      return fsStats.bavail * fsStats.bsize >= bytes;
    } catch {
      return false;
    }
  }

  /** Upper bound of the features a cached run holds at once (every cached level of every tile). */
  private cachedFeatureBytes(ctx: JobContext, lastUse: Map<string, number>, quantise: boolean): number {
    const P = ctx.model.info.geometry.prepad;
    let bytes = 0;
    for (const blk of ctx.model.info.se) {
      if ((lastUse.get(featInput(blk.index)) ?? -1) <= blk.index) continue;
      const lv = ctx.model.info.levels[blk.index]!;
      for (const t of ctx.grid.tiles)
        bytes +=
          blk.channels * levelSide(t.h, P, lv) * levelSide(t.w, P, lv) * (quantise ? 1 : FEATURE_BYTES);
    }
    return bytes;
  }

  private async stageFeeds(
    ctx: JobContext,
    t: Tile,
    session: ort.InferenceSession,
    means: Float32Array[],
    cache: FeatureCache,
  ): Promise<Record<string, ort.Tensor>> {
    const feeds: Record<string, ort.Tensor> = {};
    const reads: Array<Promise<void>> = [];
    for (const name of session.inputNames) {
      if (name === IMAGE_INPUT) feeds[name] = this.tileInput(ctx, t);
      else if (name.startsWith('se_mean_')) {
        const m = means[Number(name.slice(8))]!;
        feeds[name] = new ort.Tensor('float32', m, [1, m.length, 1, 1]);
      } else if (isCached(name)) reads.push(cachedFeed(feeds, cache, t, name));
      else if (name !== OWN_START && name !== OWN_END)
        throw new UpscaleError('engine_error', `unexpected model input ${name}`);
    }
    await Promise.all(reads);
    return feeds;
  }
}

interface JobContext {
  model: LoadedModel;
  img: { width: number; height: number; rgb: Buffer };
  grid: TileGrid;
  out: Buffer;
  outW: number;
  outH: number;
  alpha: number;
  opts: UpscaleOptions;
  units: number;
  /** the last fraction reported */
  reported: number;
  done: number;
  checkAbort: () => void;
}

/**
 * Stage k's graph passing the SE features on as float16 (see converter.ts), what the engine runs first.
 * Passing every map on as float32 instead drops the casts (about 3 % of a tiled job's CPU), yet a
 * 640x480 2x job ran slower that way: CPU user 19.2-19.5 s/MP against 18.7-19.1, wall 4.3-5.5 s
 * against 3.8-4.0, kernel time 1.2-2.6 s against 0.8-1.0, peak 1059-1234 MiB against 817: the maps
 * take twice the bytes (AMD EPYC family 25 with AVX-512, 2 cores, onnxruntime-node 1.31.1, 3 pairs).
 */
const halfStage = (k: number): string => `stage-${k}${halfFeatures}`;

/**
 * A map a stage passes on is past float16's range (65504). Real-CUGAN's features stay in the
 * hundreds on photos and fabrics, but some models' deeper ones grow on one-pixel patterns: the 4x
 * no-denoise model's reached 52,864 and then infinity on a black and white checkerboard. The job
 * then runs again on the float32 stages, which the device also runs; the check (half-range.ts)
 * reads every cached map once, on the job's thread between graph runs: in JavaScript it took 0.16 s
 * of a 640x480 2x job's 3.9 s, 0.35 s of a 3x job's 8.1 s and 0.42 s of a 2 MP 2x job's 23.5 s, a
 * quarter of that as WebAssembly SIMD (Intel Xeon, 2 cores). Without it the checkerboard came out
 * with 49,152 of its values wrong, by up to 255.
 */
class HalfRangeExceeded extends Error {
  constructor(map: string) {
    super(`${map} is past float16's range`);
    this.name = 'HalfRangeExceeded';
  }
}

/**
 * The disk of a large job's spill file filled up under its skip branches: other jobs' spills can
 * take what the job saw free when it began. The job runs again with its skip branches recomputed,
 * which writes only its SE features (a fraction of the bytes), rather than fail.
 */
class SkipSpillFailed extends Error {
  constructor(cause: unknown) {
    super('the spill file’s disk is full', { cause });
    this.name = 'SkipSpillFailed';
  }
}

/** A write refused for want of room: the file system is full, or the user's quota or file size limit is reached. */
function isDiskFull(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
}

/**
 * A tile's feeds asked for before they are needed, so that reading its maps from the spill file
 * overlaps the graph run before it. Should the job stop before it takes them, their failure is
 * nobody's to report.
 */
function readAhead(feeds: Promise<Record<string, ort.Tensor>>): Promise<Record<string, ort.Tensor>> {
  feeds.catch(() => undefined);
  return feeds;
}

/**
 * After a tile's run: its cached maps go back to the cache, and its image input (a fresh copy of
 * the tile, about 1 MB) is freed at once rather than at the next collection.
 */
function releaseFeeds(feeds: Record<string, ort.Tensor>, cache: FeatureCache | undefined): void {
  for (const [name, tensor] of Object.entries(feeds)) {
    if (name === IMAGE_INPUT) freeNow(tensor.data as Float32Array);
    else if (cache && isCached(name)) cache.release(featureData(tensor));
  }
}

/** model inputs (and stage outputs) that live in the feature cache */
function isCached(name: string): boolean {
  return name.startsWith('se_feat_') || name.startsWith(keptPrefix) || name.startsWith(skipPrefix);
}

/**
 * Sets a tile's cached map as the model input `name` of `feeds` (skip branches are float16). A
 * tile's maps are asked for all at once, so that their reads from the spill file go on together.
 */
async function cachedFeed(
  feeds: Record<string, ort.Tensor>,
  cache: FeatureCache,
  t: Tile,
  name: string,
): Promise<void> {
  const f = await cache.get(`${t.row}:${t.col}:${name}`);
  feeds[name] = featureTensor(f.data, f.dims);
}

/**
 * Frees the copy onnxruntime-node (1.30, 1.31) hands back of an output it wrote into `given`, now
 * rather than at the next garbage collection (free-now.ts). Without it a 2 MP 2x job's first skip
 * stage took 196 k page faults instead of 114 k and peaked at 868 MiB instead of 802, and ran 0.6 s
 * longer (AMD EPYC family 26 masked to AVX2, 2 cores).
 */
function freeCopy(copy: ort.Tensor | undefined, given: ort.Tensor): void {
  const data = copy?.data;
  if (!ArrayBuffer.isView(data) || data.buffer === (given.data as ArrayBufferView).buffer) return;
  freeNow(data);
}

/** A run's fetches: the given tensors, and null (onnxruntime's own) for every other output. */
function fetchesOf(
  session: ort.InferenceSession,
  own: Record<string, ort.Tensor>,
): Record<string, ort.Tensor | null> {
  return Object.fromEntries(session.outputNames.map((name) => [name, own[name] ?? null]));
}

function pick(feeds: Record<string, ort.Tensor>, names: readonly string[]): Record<string, ort.Tensor> {
  return Object.fromEntries(names.map((n) => [n, feeds[n]!]));
}
