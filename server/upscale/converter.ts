// ncnn -> ONNX conversion of one Real-CUGAN model into the set of graphs the
// tiled engine runs. Results are cached on disk, keyed by a hash of the source
// files and of the converter version, so a restart costs a directory read.

import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { type NcnnGraph, type NcnnLayer, paramInt, parseNcnnParam } from './ncnn-param.js';
import {
  type ModelGeometry,
  type SeBlock,
  blobAliases,
  findSeBlocks,
  modelGeometry,
  spatialLengths,
} from './ncnn-analysis.js';
import {
  type BlobInput,
  type VariantSpec,
  buildOnnxGraph,
  loadNcnnWeights,
} from './graph-builder.js';
import { pushCropsUp } from './crop-pushdown.js';
import { encodeModel } from './onnx-proto.js';
import { wideConvolutionPlan, withWinogradLayers } from './winograd.js';
import type { SeLevel } from '../../shared/upscale/se-level.js';

/** Bump when the emitted graphs change, so cached conversions are rebuilt. */
export const CONVERTER_VERSION = 21;

export const OUTPUT_NAME = 'output';
export const meanInput = (k: number): string => `se_mean_${k}`;
export const featInput = (k: number): string => `se_feat_${k}`;
export const featOutput = 'se_feat';
/** per-channel sum of the features entering an SE block over the tile's own part */
export const sumOutput = 'se_sum';
/** an image-like blob (<= 4 channels) one stage computes and the final stage reuses */
export const keptPrefix = 'kept_';
/** a wide skip branch one stage computes and the final stage takes, when the engine caches it */
export const skipPrefix = 'skip_';
const skipName = (blob: string): string => `${skipPrefix}${blob}`;
/** suffix of the variants that output / take the cached skip branches */
export const withSkips = '+skips';
/** suffix of the stages that pass their SE features on as float16 (the server's; see variantSpecs) */
export const halfFeatures = '+f16';

/**
 * Variants per model (k = SE block index, n = number of SE blocks):
 * - `full`:     image (+alpha) -> output, SE means computed from the tile itself (untiled use)
 * - `shared`:   image + all SE means (+alpha) -> output (final pass of tiled inference)
 * - `probe-k`:  image + means 0..k-1 + owned range -> sum of the features entering
 *               SE k over the tile's own part (recompute passes)
 * - `stage-k`:  cached features 0..k-1 + means 0..k-1 (+image where a skip needs it)
 *               -> features entering SE k and their owned sum, or the output when k = n
 *               (cached passes; float32 throughout, the form a device's runtime runs
 *               everywhere: WebGPU without shader-f16 cannot cast to float16);
 *               a stage also outputs the image-like blobs `kept_*` the final stage takes
 *               instead of recomputing them (see keptBlobs)
 * - `stage-k+f16`: as stage-k with the features as float16 (cast in the graph; the
 *               owned sum is taken before the cast, so the means stay exact), what the
 *               server runs: half the bytes to cache, which in a 2 MP 2x job brought its
 *               spill from 2.2 to 1.1 GB and the job from 19.4-19.9 s to 14.3-15.6 s
 *               (AMD EPYC, AVX-512, 2 cores)
 * - `stage-k+f16+skips`: as stage-k+f16, and also the wide skip branches `skip_*` (float16)
 *               later stages would recompute (see skipBlobs) as outputs, and
 *               those earlier stages computed as inputs; only for the stages
 *               that compute or take some
 */
export interface ConvertedModel {
  name: string;
  dir: string;
  geometry: ModelGeometry;
  se: SeBlock[];
  /** SE k's feature map has side ratio*L + offset for an aligned padded tile side L */
  levels: SeLevel[];
  variants: Record<string, string>;
  /** each variant's graph inputs, so a job plans its cache without loading every stage's session */
  inputs: Record<string, string[]>;
  /** the wide skip branches the `+skips` variants pass on, with their map sides, so a job can size them */
  skips: SkipLevel[];
}

/** A skip branch a stage caches for a later one: its graph name, channels and side law (as SeLevel). */
export interface SkipLevel extends SeLevel {
  name: string;
  channels: number;
}

export type { SeLevel } from '../../shared/upscale/se-level.js';

interface Manifest extends Omit<ConvertedModel, 'name' | 'dir'> {
  version: number;
  hash: string;
}

/** Each blob's map side as ratio * L + offset for an aligned padded tile side L. */
function sideLaws(graph: NcnnGraph, geometry: ModelGeometry, blobs: string[]): SeLevel[] {
  const l1 = 40 * geometry.align;
  const l2 = l1 + 8 * geometry.align;
  const a = spatialLengths(graph, l1);
  const b = spatialLengths(graph, l2);
  return blobs.map((blob) => {
    const fa = a.get(blob);
    const fb = b.get(blob);
    if (typeof fa !== 'number' || typeof fb !== 'number') throw new Error(`blob ${blob} is not spatial`);
    const ratio = (fb - fa) / (l2 - l1);
    return { ratio, offset: fa - ratio * l1 };
  });
}

export function seLevels(graph: NcnnGraph, se: SeBlock[], geometry: ModelGeometry): SeLevel[] {
  return sideLaws(graph, geometry, se.map((blk) => blk.poolInput));
}

/** The skip branches of variantSpecs' `+skips` variants, with their sides. */
function skipLevels(graph: NcnnGraph, se: SeBlock[], geometry: ModelGeometry): SkipLevel[] {
  const { skips } = passedBlobs(graph, se);
  const laws = sideLaws(graph, geometry, skips.map((x) => x.blob));
  return skips.map((x, i) => ({ name: skipName(x.blob), channels: x.channels, ...laws[i]! }));
}

/**
 * Layers a variant runs: backward from `outputs`, stopping at `overrides`
 * (the same pruning as buildOnnxGraph), by name.
 */
function layersRun(graph: NcnnGraph, outputs: string[], overrides: string[]): Set<string> {
  const alias = blobAliases(graph);
  const canon = (b: string): string => alias.get(b) ?? b;
  const producers = new Map<string, NcnnLayer>();
  for (const l of graph.layers) if (l.type !== 'Split') for (const t of l.tops) producers.set(canon(t), l);
  const stop = new Set(overrides.map(canon));
  const run = new Set<string>();
  const visit = (blob: string): void => {
    const b = canon(blob);
    const p = producers.get(b);
    if (stop.has(b) || !p || run.has(p.name)) return;
    run.add(p.name);
    p.bottoms.forEach(visit);
  };
  outputs.forEach(visit);
  return run;
}

/**
 * Image-like blobs (a convolution's output with at most 4 channels, such as the
 * first U-Net's upscaled RGB) that the final stage would otherwise recompute
 * from the input: each is output by the first stage that computes it and fed to
 * the final stage, so that stage skips most of the first U-Net. Wide skip
 * branches stay recomputed (caching them would cost ~1 KB per pixel).
 */
function keptBlobs(
  graph: NcnnGraph,
  se: SeBlock[],
  outBlob: string,
): Array<{ blob: string; stage: number; channels: number }> {
  const n = se.length;
  const feats = (k: number): string[] => se.slice(0, k).flatMap((b) => [b.poolInput, b.mean]);
  const earlier = Array.from({ length: n }, (_, k) => layersRun(graph, [se[k]!.poolInput], feats(k)));
  const last = layersRun(graph, [outBlob], feats(n));
  const kept: Array<{ blob: string; stage: number; channels: number }> = [];
  for (const l of graph.layers) {
    if ((l.type !== 'Convolution' && l.type !== 'Deconvolution') || !last.has(l.name)) continue;
    const channels = paramInt(l, 0, 0);
    const stage = earlier.findIndex((run) => run.has(l.name));
    if (channels > 4 || stage < 0 || l.tops[0] === outBlob) continue;
    kept.push({ blob: l.tops[0]!, stage, channels });
  }
  return kept;
}

/**
 * Wide blobs (skip branches: 64 channels at the image's or the output's
 * resolution) that a stage would recompute from an earlier stage's inputs:
 * for each stage, the frontier between the layers it shares with an earlier
 * stage and the ones it runs first, taken after a Crop where it crops them
 * (smaller to cache). With them fed in, every stage runs only its own layers.
 * `stage` is the first stage that computes a blob, `consumers` the stages
 * that take it. Caching them costs, as float16, about 0.6 KB per input pixel
 * in 2x and 1 KB in 4x, so the engine does it within a memory budget and
 * recomputes them otherwise.
 * In 2x the recomputed layers are stage 1's first two convolutions of the
 * first U-Net (image resolution) and the final stage's first two of the
 * second (output resolution, convrelu_8 32->64 at 2x size): 37 + 102 ms of CPU
 * per 192 px tile (scripts/bench-winograd-layers.ts), about a third of the
 * tiled job's overhead over untiled; 3x the same at 3x size; 4x also a U-Net's
 * upsampling.
 */
export function skipBlobs(
  graph: NcnnGraph,
  se: SeBlock[],
  outBlob: string,
  kept: string[],
): Array<{ blob: string; stage: number; consumers: number[]; channels: number }> {
  const n = se.length;
  const alias = blobAliases(graph);
  const canon = (b: string): string => alias.get(b) ?? b;
  const producers = new Map<string, NcnnLayer>();
  for (const l of graph.layers) if (l.type !== 'Split') for (const t of l.tops) producers.set(canon(t), l);
  const feats = (k: number): string[] => se.slice(0, k).flatMap((b) => [b.poolInput, b.mean]);
  const runs = Array.from({ length: n + 1 }, (_, k) =>
    k < n
      ? layersRun(graph, [se[k]!.poolInput], feats(k))
      : layersRun(graph, [outBlob], [...feats(n), ...kept]),
  );
  const firstStage = (l: NcnnLayer): number => runs.findIndex((run) => run.has(l.name));
  const found = new Map<string, { blob: string; stage: number; consumers: number[]; channels: number }>();
  for (let c = 1; c <= n; c++) {
    for (const l of graph.layers) {
      if (!runs[c]!.has(l.name) || firstStage(l) !== c) continue;
      for (const bottom of l.bottoms) {
        const p = producers.get(canon(bottom));
        if (!p || !runs[c]!.has(p.name)) continue;
        const stage = firstStage(p);
        if (stage >= c) continue;
        const channels = paramInt(p, 0, 0);
        const blob = l.type === 'Crop' ? canon(l.tops[0]!) : canon(bottom);
        if (channels <= 4) continue;
        const f = found.get(blob) ?? { blob, stage, consumers: [], channels };
        if (!f.consumers.includes(c)) f.consumers.push(c);
        found.set(blob, f);
      }
    }
  }
  return [...found.values()];
}

/** The graph's output blob and the blobs one stage passes on to later ones (keptBlobs, skipBlobs). */
function passedBlobs(
  graph: NcnnGraph,
  se: SeBlock[],
): {
  outBlob: string;
  kept: ReturnType<typeof keptBlobs>;
  skips: ReturnType<typeof skipBlobs>;
} {
  const outBlob = graph.layers[graph.layers.length - 1]!.tops[0]!;
  const kept = keptBlobs(graph, se, outBlob);
  const skips = skipBlobs(
    graph,
    se,
    outBlob,
    kept.map((k) => k.blob),
  );
  return { outBlob, kept, skips };
}

export function variantSpecs(graph: NcnnGraph, se: SeBlock[]): VariantSpec[] {
  const { outBlob, kept, skips } = passedBlobs(graph, se);
  const keptName = (blob: string): string => `${keptPrefix}${blob}`;
  const means = (k: number): BlobInput[] =>
    se
      .slice(0, k)
      .map((b) => ({ blob: b.mean, name: meanInput(b.index), channels: b.channels, vector: true }));
  const feats = (k: number, half: boolean): BlobInput[] =>
    se
      .slice(0, k)
      .map((b) => ({ blob: b.poolInput, name: featInput(b.index), channels: b.channels, vector: false, half }));
  const specs: VariantSpec[] = [
    { name: 'full', outputs: [{ blob: outBlob, name: OUTPUT_NAME }], alpha: true },
    {
      name: 'shared',
      outputs: [{ blob: outBlob, name: OUTPUT_NAME }],
      overrides: means(se.length),
      alpha: true,
    },
  ];
  const skipInputs = (k: number): BlobInput[] =>
    skips
      .filter((x) => x.consumers.includes(k))
      .map((x) => ({
        blob: x.blob,
        name: skipName(x.blob),
        channels: x.channels,
        vector: false,
        half: true,
      }));
  const skipOutputs = (k: number): VariantSpec['outputs'] =>
    skips.filter((x) => x.stage === k).map((x) => ({ blob: x.blob, name: skipName(x.blob), half: true }));
  const withSkipsOf = (stage: VariantSpec, k: number): void => {
    const ins = skipInputs(k);
    const outs = skipOutputs(k);
    if (ins.length || outs.length)
      specs.push({
        ...stage,
        name: `${stage.name}${withSkips}`,
        outputs: [...stage.outputs, ...outs],
        overrides: [...ins, ...(stage.overrides ?? [])],
      });
  };
  for (const b of se) {
    const ownedSum = { blob: b.poolInput, name: sumOutput };
    specs.push({ name: `probe-${b.index}`, outputs: [], overrides: means(b.index), ownedSum });
    for (const half of [false, true]) {
      const stage: VariantSpec = {
        name: `stage-${b.index}${half ? halfFeatures : ''}`,
        outputs: [
          { blob: b.poolInput, name: featOutput, half },
          ...kept.filter((k) => k.stage === b.index).map((k) => ({ blob: k.blob, name: keptName(k.blob) })),
        ],
        overrides: [...feats(b.index, half), ...means(b.index)],
        ownedSum,
      };
      specs.push(stage);
      if (half) withSkipsOf(stage, b.index);
    }
  }
  const keptInputs = kept.map((k) => ({
    blob: k.blob,
    name: keptName(k.blob),
    channels: k.channels,
    vector: false,
  }));
  for (const half of [false, true]) {
    const final: VariantSpec = {
      name: `stage-${se.length}${half ? halfFeatures : ''}`,
      outputs: [{ blob: outBlob, name: OUTPUT_NAME }],
      overrides: [...keptInputs, ...feats(se.length, half), ...means(se.length)],
      alpha: true,
    };
    specs.push(final);
    if (half) withSkipsOf(final, se.length);
  }
  return specs;
}

/**
 * Scales whose models stay direct even with `winograd`: a 640x480 4x job ran no faster with the
 * wide layers as Winograd (CPU user 9.1-10.1 s against 8.2-10.4, 3 jobs each of 2 processes) and
 * peaked 60-80 MiB higher (862-917 MiB against 795-850), where the 1 GiB budget is what sizes 4x
 * tiles. At 2x and 3x they pay, for 40-100 MiB more, well inside it: a 640x480 3x job took 10.9-12.0
 * s of CPU user against 11.6-12.5 (AMD EPYC family 26 masked to AVX2, 2 cores), and a median 13.6 s
 * against 14.6, 8.1 s of wall time against 8.4 (Intel Xeon family 6 masked to AVX2, 6 rounds). With
 * winograd.ts's depthwise input and separable output transforms the 4x answer held: 5.31-5.87 s
 * against 5.39-6.56 of wall time, and 887-910 MiB against 811-827 (AMD EPYC family 25 model 17
 * masked, 4 pairs).
 */
const DIRECT_ONLY_SCALES: ReadonlySet<number> = new Set([4]);

/**
 * Converts one model into its variants' graphs (cached under cacheRoot, one
 * set per `winograd` choice). Every convolution is emitted as a direct Conv
 * (or, for a strided deconvolution, its sub-pixel Conv); with `winograd`, the
 * wide 3×3 ones become Winograd F(4,3) subgraphs (winograd.ts's
 * wideConvolutionPlan), for CPUs where they pay (cpu-vector-width.ts), except in
 * DIRECT_ONLY_SCALES. On such a CPU a 2 MP 2x job took 17.1-19.7 s of CPU user
 * per MP against 19.0-23.0 direct, and 20.5-23.6 s against 21.7-26.0 (AMD
 * EPYC family 26 masked to AVX2, 2 cores, one job a process, 3 and 6 runs).
 * With AVX-512 the direct kernels won (not on Zen 4's half-width AVX-512: see
 * cpu-vector-width.ts), as measured per layer with
 * scripts/bench-winograd-layers.ts up2x-conservative 192 7 (onnxruntime-node
 * 1.30, 2 threads, median CPU-user ms of each layer alone at its size in a 192
 * px tile, an AVX-512 machine at load average 9-11 on 2 cores), direct / F(2,3)
 * / F(4,3) / F(6,3):
 *   convrelu_0   3->32  @228   10 /  43 /  36 /  30
 *   convrelu_1  32->64  @226   27 /  68 /  51 /  56
 *   convrelu_3  64->128 @112   27 /  51 /  45 /  36
 *   convrelu_4 128->64  @110   21 /  44 /  36 /  35
 *   convrelu_6  64->64  @216   45 /  78 /  73 /  68
 *   convrelu_7   3->32  @424   15 / 112 /  70 /  62
 *   convrelu_8  32->64  @422   87 / 151 / 148 / 155
 *   convrelu_10 64->64  @210   36 /  79 /  60 /  68
 *   convrelu_11 64->128 @208   84 /  97 /  97 /  77
 *   convrelu_14 128->256 @103  55 /  75 /  54 /  60
 *   convrelu_15 256->128 @101  51 /  82 /  50 /  55
 *   convrelu_17 128->64 @198   48 /  97 /  69 /  68
 *   convrelu_18 64->64  @196   30 /  85 /  58 /  51
 *   convrelu_20 64->64  @388   91 / 155 / 135 / 152
 *   conv_46     64->3   @386   47 /  84 /  69 /  53
 * there onnxruntime's own kernels (MLAS's NCHWc direct convolution, near the
 * cores' fp32 peak) win or tie on every shape: the transforms, as ONNX ops, are
 * separate passes over α²/m² times the map (a strided Conv, a Transpose,
 * DepthToSpace) that its direct kernel never makes; the separable input
 * transform and a ConvTranspose output transform (WG_IN / WG_OUT) measured no
 * better. Only the widest layers (128<->256) tie at F(4,3), within the noise. Those were the
 * transforms before winograd.ts's depthwise input and separable output, which cut the wide layers'
 * wall time by 8 % on Zen 4 masked to AVX2. With them, full-width AVX-512 still runs a whole job
 * fastest direct: a 2 MP 2x job took 18.7-19.7 s of wall time direct, 20.5-20.8 with every wide
 * layer as Winograd, and 19.4-20.4 with only the 128<->256 ones, the two layers that won alone
 * (Intel Xeon family 6 with AVX-512, 2 cores, 4 interleaved rounds; winograd.ts's
 * wideConvolutionPlan has the per-layer figures).
 * Max difference from direct, relative to the largest output: 6e-7 (F(2,3)),
 * 1.2e-5 (F(4,3)), 3.3e-5 (F(6,3)), far inside 1/255.
 */
export async function convertModel(
  paramPath: string,
  binPath: string,
  cacheRoot: string,
  opts: { winograd?: boolean } = {},
): Promise<ConvertedModel> {
  const name = path.basename(paramPath).replace(/\.param$/, '');
  const [paramText, bin] = await Promise.all([readFile(paramPath, 'utf8'), readFile(binPath)]);
  const graph = parseNcnnParam(paramText);
  const geometry = modelGeometry(graph);
  const winograd = opts.winograd === true && !DIRECT_ONLY_SCALES.has(geometry.scale);
  const hash = createHash('sha256')
    .update(`v${CONVERTER_VERSION}\0${winograd ? 'winograd\0' : ''}`)
    .update(paramText)
    .update(bin)
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(cacheRoot, `${name}-${hash}`);
  const manifestPath = path.join(dir, 'manifest.json');
  try {
    const m = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    if (m.version === CONVERTER_VERSION && m.hash === hash) {
      const { geometry, se, levels, variants, inputs, skips } = m;
      return { name, dir, geometry, se, levels, variants, inputs, skips };
    }
  } catch {
    // not converted yet
  }
  const weights = loadNcnnWeights(graph, bin);
  const se = findSeBlocks(graph);
  const levels = seLevels(graph, se, geometry);
  const skips = skipLevels(graph, se, geometry);
  await mkdir(dir, { recursive: true });
  const variants: Record<string, string> = {};
  const inputs: Record<string, string[]> = {};
  for (const spec of variantSpecs(graph, se)) {
    const file = `${spec.name}.onnx`;
    const tmp = path.join(dir, `${file}.tmp-${process.pid}-${randomUUID()}`);
    const direct = pushCropsUp(buildOnnxGraph(graph, weights, spec));
    const onnx = winograd ? withWinogradLayers(direct, wideConvolutionPlan(direct)) : direct;
    await writeFile(tmp, encodeModel(onnx));
    await rename(tmp, path.join(dir, file));
    variants[spec.name] = file;
    inputs[spec.name] = onnx.inputs.map((i) => i.name);
  }
  const manifest: Manifest = {
    version: CONVERTER_VERSION,
    hash,
    geometry,
    se,
    levels,
    variants,
    inputs,
    skips,
  };
  const tmp = `${manifestPath}.tmp-${process.pid}-${randomUUID()}`; // engines in one process may convert at once
  await writeFile(tmp, JSON.stringify(manifest, null, 2));
  await rename(tmp, manifestPath); // the manifest last: its presence means the set is complete
  return { name, dir, geometry, se, levels, variants, inputs, skips };
}
