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
  type BuildOptions,
  type VariantSpec,
  buildOnnxGraph,
  loadNcnnWeights,
} from './graph-builder.js';
import { encodeModel } from './onnx-proto.js';
import type { SeLevel } from './se-level.js';
import type { WinogradTile } from './winograd.js';

/** Bump when the emitted graphs change, so cached conversions are rebuilt. */
export const CONVERTER_VERSION = 12;

/**
 * 3×3 convolutions the converter emits as Winograd F(m, 3) (winograd.ts), by
 * ncnn layer name. Chosen per layer by measurement
 * (scripts/bench-winograd-layers.ts: onnxruntime-node 1.30, 2 threads, CPU user
 * time of each layer at its size in a 192 px tile): see WINOGRAD_MEASURED.
 */
export const DEFAULT_WINOGRAD: Readonly<Record<string, WinogradTile>> = {};

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
/** suffix of the variants that output / take the cached skip branches */
export const withSkips = '+skips';

/**
 * Variants per model (k = SE block index, n = number of SE blocks):
 * - `full`:     image (+alpha) -> output, SE means computed from the tile itself (untiled use)
 * - `shared`:   image + all SE means (+alpha) -> output (final pass of tiled inference)
 * - `probe-k`:  image + means 0..k-1 + owned range -> sum of the features entering
 *               SE k over the tile's own part (recompute passes)
 * - `stage-k`:  cached features 0..k-1 + means 0..k-1 (+image where a skip needs it)
 *               -> features entering SE k and their owned sum, or the output when k = n
 *               (cached passes);
 *               a stage also outputs the image-like blobs `kept_*` the final stage takes
 *               instead of recomputing them (see keptBlobs)
 * - `stage-k+skips`: as stage-k, and also the wide skip branches `skip_*` (float16)
 *               the final stage would recompute (see skipBlobs); only for the stages
 *               that compute some, and `stage-n+skips` takes them all
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
}

export type { SeLevel } from './se-level.js';

interface Manifest extends Omit<ConvertedModel, 'name' | 'dir'> {
  version: number;
  hash: string;
}

export function seLevels(graph: NcnnGraph, se: SeBlock[], geometry: ModelGeometry): SeLevel[] {
  const l1 = 40 * geometry.align;
  const l2 = l1 + 8 * geometry.align;
  const a = spatialLengths(graph, l1);
  const b = spatialLengths(graph, l2);
  return se.map((blk) => {
    const fa = a.get(blk.poolInput);
    const fb = b.get(blk.poolInput);
    if (typeof fa !== 'number' || typeof fb !== 'number')
      throw new Error(`SE ${blk.index} input is not spatial`);
    const ratio = (fb - fa) / (l2 - l1);
    return { ratio, offset: fa - ratio * l1 };
  });
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
 * Wide blobs (skip branches, 64 channels at the output's resolution in 4x)
 * that the final stage recomputes from earlier stages' inputs: the frontier
 * between the layers it shares with an earlier stage and the ones only it runs,
 * taken after a Crop where the final stage crops them (smaller to cache). With
 * them fed in, the final stage runs only its own layers. Caching them costs
 * about 1 KB per input pixel as float16 (4x), so the engine does it per tile
 * within a memory budget and recomputes the rest.
 * Only worth it when the recomputed part includes a U-Net's upsampling
 * (Deconvolution), as in 4x (about 0.8 s of a 640x480 job saved): in 2x/3x it
 * is two convolutions, and outputting the skips cost about what it saved
 * (0.05 s) for 250 MB more RAM, so those graphs get none.
 */
export function skipBlobs(
  graph: NcnnGraph,
  se: SeBlock[],
  outBlob: string,
  kept: string[],
): Array<{ blob: string; stage: number; channels: number }> {
  const n = se.length;
  const alias = blobAliases(graph);
  const canon = (b: string): string => alias.get(b) ?? b;
  const producers = new Map<string, NcnnLayer>();
  for (const l of graph.layers) if (l.type !== 'Split') for (const t of l.tops) producers.set(canon(t), l);
  const feats = (k: number): string[] => se.slice(0, k).flatMap((b) => [b.poolInput, b.mean]);
  const earlier = Array.from({ length: n }, (_, k) => layersRun(graph, [se[k]!.poolInput], feats(k)));
  const last = layersRun(graph, [outBlob], [...feats(n), ...kept]);
  const stageOf = (l: NcnnLayer): number => earlier.findIndex((run) => run.has(l.name));
  const found = new Map<string, { blob: string; stage: number; channels: number }>();
  const recomputesUpsampling = graph.layers.some(
    (l) => l.type === 'Deconvolution' && last.has(l.name) && stageOf(l) >= 0,
  );
  if (!recomputesUpsampling) return [];
  for (const l of graph.layers) {
    if (!last.has(l.name) || stageOf(l) >= 0) continue;
    for (const bottom of l.bottoms) {
      const p = producers.get(canon(bottom));
      if (!p || !last.has(p.name)) continue;
      const stage = stageOf(p);
      if (stage < 0) continue;
      const channels = paramInt(p, 0, 0);
      const blob = l.type === 'Crop' ? canon(l.tops[0]!) : canon(bottom);
      if (channels > 4) found.set(blob, { blob, stage, channels });
    }
  }
  return [...found.values()];
}

export function variantSpecs(graph: NcnnGraph, se: SeBlock[]): VariantSpec[] {
  const outBlob = graph.layers[graph.layers.length - 1]!.tops[0]!;
  const kept = keptBlobs(graph, se, outBlob);
  const keptName = (blob: string): string => `${keptPrefix}${blob}`;
  const skips = skipBlobs(
    graph,
    se,
    outBlob,
    kept.map((k) => k.blob),
  );
  const skipName = (blob: string): string => `${skipPrefix}${blob}`;
  const means = (k: number): BlobInput[] =>
    se
      .slice(0, k)
      .map((b) => ({ blob: b.mean, name: meanInput(b.index), channels: b.channels, vector: true }));
  const feats = (k: number): BlobInput[] =>
    se
      .slice(0, k)
      .map((b) => ({ blob: b.poolInput, name: featInput(b.index), channels: b.channels, vector: false }));
  const specs: VariantSpec[] = [
    { name: 'full', outputs: [{ blob: outBlob, name: OUTPUT_NAME }], alpha: true },
    {
      name: 'shared',
      outputs: [{ blob: outBlob, name: OUTPUT_NAME }],
      overrides: means(se.length),
      alpha: true,
    },
  ];
  for (const b of se) {
    const ownedSum = { blob: b.poolInput, name: sumOutput };
    specs.push({ name: `probe-${b.index}`, outputs: [], overrides: means(b.index), ownedSum });
    const stage: VariantSpec = {
      name: `stage-${b.index}`,
      outputs: [
        { blob: b.poolInput, name: featOutput },
        ...kept.filter((k) => k.stage === b.index).map((k) => ({ blob: k.blob, name: keptName(k.blob) })),
      ],
      overrides: [...feats(b.index), ...means(b.index)],
      ownedSum,
    };
    specs.push(stage);
    const own = skips.filter((k) => k.stage === b.index);
    if (own.length)
      specs.push({
        ...stage,
        name: `${stage.name}${withSkips}`,
        outputs: [
          ...stage.outputs,
          ...own.map((k) => ({ blob: k.blob, name: skipName(k.blob), half: true })),
        ],
      });
  }
  const keptInputs = kept.map((k) => ({
    blob: k.blob,
    name: keptName(k.blob),
    channels: k.channels,
    vector: false,
  }));
  const final: VariantSpec = {
    name: `stage-${se.length}`,
    outputs: [{ blob: outBlob, name: OUTPUT_NAME }],
    overrides: [...keptInputs, ...feats(se.length), ...means(se.length)],
    alpha: true,
  };
  specs.push(final);
  if (skips.length)
    specs.push({
      ...final,
      name: `${final.name}${withSkips}`,
      overrides: [
        ...skips.map((k) => ({
          blob: k.blob,
          name: skipName(k.blob),
          channels: k.channels,
          vector: false,
          half: true,
        })),
        ...final.overrides!,
      ],
    });
  return specs;
}

export async function convertModel(
  paramPath: string,
  binPath: string,
  cacheRoot: string,
  build: BuildOptions = { winograd: DEFAULT_WINOGRAD },
): Promise<ConvertedModel> {
  const name = path.basename(paramPath).replace(/\.param$/, '');
  const [paramText, bin] = await Promise.all([readFile(paramPath, 'utf8'), readFile(binPath)]);
  const plan = Object.entries(build.winograd ?? {}).sort();
  const hash = createHash('sha256')
    .update(`v${CONVERTER_VERSION}\0`)
    .update(plan.length ? `winograd ${JSON.stringify(plan)}\0` : '') // no plan: the hash of before
    .update(paramText)
    .update(bin)
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(cacheRoot, `${name}-${hash}`);
  const manifestPath = path.join(dir, 'manifest.json');
  try {
    const m = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    if (m.version === CONVERTER_VERSION && m.hash === hash) {
      const { geometry, se, levels, variants, inputs } = m;
      return { name, dir, geometry, se, levels, variants, inputs };
    }
  } catch {
    // not converted yet
  }
  const graph = parseNcnnParam(paramText);
  const weights = loadNcnnWeights(graph, bin);
  const geometry = modelGeometry(graph);
  const se = findSeBlocks(graph);
  const levels = seLevels(graph, se, geometry);
  await mkdir(dir, { recursive: true });
  const variants: Record<string, string> = {};
  const inputs: Record<string, string[]> = {};
  for (const spec of variantSpecs(graph, se)) {
    const file = `${spec.name}.onnx`;
    const tmp = path.join(dir, `${file}.tmp-${process.pid}-${randomUUID()}`);
    const onnx = buildOnnxGraph(graph, weights, spec, build);
    await writeFile(tmp, encodeModel(onnx));
    await rename(tmp, path.join(dir, file));
    variants[spec.name] = file;
    inputs[spec.name] = onnx.inputs.map((i) => i.name);
  }
  const manifest: Manifest = { version: CONVERTER_VERSION, hash, geometry, se, levels, variants, inputs };
  const tmp = `${manifestPath}.tmp-${process.pid}-${randomUUID()}`; // engines in one process may convert at once
  await writeFile(tmp, JSON.stringify(manifest, null, 2));
  await rename(tmp, manifestPath); // the manifest last: its presence means the set is complete
  return { name, dir, geometry, se, levels, variants, inputs };
}
