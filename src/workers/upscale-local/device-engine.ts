// Real-CUGAN on this device: the server's converted graphs on onnxruntime-web, tiled exactly as the
// server tiles (shared/upscale/padding.ts and tiling.ts, one code for both runtimes). SE means are shared across tiles exactly, as the server
// shares them, in one of two ways:
//   cached     the server's cache_mode 0 without skip caching: stage k runs every tile from the
//              features cached at the earlier SE sync points and returns the features entering SE
//              block k with their sum over the part of the map the tile owns; every convolution
//              runs once. Used when the cached features fit the memory budget (from the device's
//              memory), as they do for a few hundred thousand pixels on a tablet.
//   recompute  the server's cache_mode 3: pass k runs every tile up to SE block k (probe-k), then
//              one pass runs the `shared` graph with the exact means. About 2.5 times the work,
//              but nothing is kept between passes, so memory stays at one tile's activations
//              whatever the image size (a 2 MP image on a small tablet).
// A job of one tile runs the `full` graph once, as on the server.
import type { InferenceSession, Tensor } from 'onnxruntime-web/wasm';
import type { DeviceGraphManifest } from '../../../shared/upscale/graph-manifest';
import { extractTile, storeTile } from '../../../shared/upscale/padding';
import { type Tile, type TileGrid, levelSide, ownedRange, planTiles, tileCountsFor } from '../../../shared/upscale/tiling';

/** What the worker needs of onnxruntime-web (the wasm and WebGPU builds share it). */
export interface OrtApi {
  Tensor: typeof Tensor;
  InferenceSession: { create(model: Uint8Array, options?: InferenceSession.SessionOptions): Promise<InferenceSession> };
}


export class DeviceCancelled extends Error {
  constructor() {
    super('upscale cancelled');
    this.name = 'DeviceCancelled';
  }
}

export interface DeviceJob {
  rgb: Uint8Array;
  width: number;
  height: number;
  alpha: number;
  maxTile: number;
  /** bytes of cached features the cached strategy may hold; beyond it the job recomputes */
  cacheBudgetBytes: number;
  isCancelled: () => boolean;
  onProgress: (fraction: number) => void;
}

export interface DeviceJobResult {
  rgb: Uint8Array;
  width: number;
  height: number;
  tiles: number;
  strategy: 'single' | 'cached' | 'recompute';
}

const OUTPUT = 'output';
const SUM = 'se_sum';

/** Yields to the worker's event loop (a cancel message can arrive), then checks for cancel. */
const between = async (job: DeviceJob): Promise<void> => {
  await new Promise((r) => setTimeout(r, 0));
  if (job.isCancelled()) throw new DeviceCancelled();
};

export async function runDeviceJob(
  ort: OrtApi,
  manifest: DeviceGraphManifest,
  session: (variant: string) => Promise<InferenceSession>,
  job: DeviceJob,
): Promise<DeviceJobResult> {
  const { scale, prepad: P, align } = manifest.geometry;
  const counts = tileCountsFor(0, job.width, job.height, align, job.maxTile);
  const grid = planTiles(job.width, job.height, align, counts.cols, counts.rows);
  const outW = job.width * scale;
  const outH = job.height * scale;
  const out = new Uint8Array(outW * outH * 3);
  const single = grid.tiles.length === 1;
  const n = manifest.se.length;
  // A cached map is dropped after the last stage that reads it.
  const lastUse = new Map<string, number>();
  for (let k = 0; k <= n; k++) for (const name of manifest.inputs[`stage-${k}`] ?? []) lastUse.set(name, k);
  const strategy: DeviceJobResult['strategy'] = single
    ? 'single'
    : manifest.variants[`stage-${n}`] !== undefined && cachedFeatureBytes(manifest, grid, lastUse) <= job.cacheBudgetBytes
      ? 'cached'
      : 'recompute';
  const units = single ? 1 : grid.tiles.length * (n + 1);
  let done = 0;
  const step = async (): Promise<void> => {
    done++;
    job.onProgress(Math.min(0.99, done / units));
    await between(job);
  };
  const tileInput = (t: Tile): Tensor => {
    const w = t.w + 2 * P;
    const h = t.h + 2 * P;
    return new ort.Tensor('float32', extractTile(job.rgb, job.width, job.height, t.x - P, t.y - P, w, h), [1, 3, h, w]);
  };
  const meanFeeds = (means: Float32Array[], count: number): Record<string, Tensor> => {
    const feeds: Record<string, Tensor> = {};
    for (let k = 0; k < count; k++) feeds[`se_mean_${k}`] = new ort.Tensor('float32', means[k]!, [1, means[k]!.length, 1, 1]);
    return feeds;
  };

  const residual = scale === 4 ? { rgb: job.rgb, width: job.width, scale } : undefined;
  const store = (t: Tile, o: Tensor): void => {
    const [, , oh, ow] = o.dims as [number, number, number, number];
    if (ow !== t.w * scale || oh !== t.h * scale) throw new Error(`unexpected output ${ow}x${oh}`);
    storeTile(o.data as Float32Array, ow, oh, out, outW, outH, t.x * scale, t.y * scale, residual);
  };
  const addSums = (res: InferenceSession.OnnxValueMapType, acc: Float64Array): void => {
    const sums = res[SUM]!.data as Float32Array;
    if (sums.length !== acc.length) throw new Error(`${sums.length} SE sums for ${acc.length} channels`);
    for (let c = 0; c < acc.length; c++) acc[c]! += sums[c]!;
  };

  if (strategy === 'cached') {
    const cache = new Map<string, { data: Float32Array; dims: readonly number[] }>();
    const key = (t: Tile, name: string): string => `${t.row}:${t.col}:${name}`;
    const means: Float32Array[] = [];
    for (let k = 0; k <= n; k++) {
      const stage = await session(`stage-${k}`);
      const acc = k < n ? new Float64Array(manifest.se[k]!.channels) : undefined;
      let area = 0;
      for (const t of grid.tiles) {
        const feeds: Record<string, Tensor> = {};
        const owned = k < n ? ownedFeeds(ort, manifest, grid, k, t) : undefined;
        for (const name of stage.inputNames) {
          if (name === 'input') feeds[name] = tileInput(t);
          else if (name === 'alpha') feeds[name] = new ort.Tensor('float32', Float32Array.of(job.alpha), []);
          else if (name.startsWith('se_mean_')) {
            const m = means[Number(name.slice(8))]!;
            feeds[name] = new ort.Tensor('float32', m, [1, m.length, 1, 1]);
          } else if (owned && (name === 'own_start' || name === 'own_end')) feeds[name] = owned.feeds[name]!;
          else {
            const c = cache.get(key(t, name));
            if (!c) throw new Error(`no cached value for model input ${name}`);
            feeds[name] = new ort.Tensor('float32', c.data, c.dims);
          }
        }
        const res = await stage.run(feeds);
        if (k === n) store(t, res[OUTPUT]!);
        else {
          addSums(res, acc!);
          area += owned!.area;
          const feat = res['se_feat']!;
          if ((lastUse.get(`se_feat_${k}`) ?? -1) > k)
            cache.set(key(t, `se_feat_${k}`), { data: feat.data as Float32Array, dims: feat.dims });
          for (const name of stage.outputNames)
            if (name.startsWith('kept_'))
              cache.set(key(t, name), { data: res[name]!.data as Float32Array, dims: res[name]!.dims });
        }
        for (const [name, last] of lastUse) if (last === k) cache.delete(key(t, name));
        await step();
      }
      if (acc) means.push(Float32Array.from(acc, (v) => v / area));
    }
    return { rgb: out, width: outW, height: outH, tiles: grid.tiles.length, strategy };
  }

  const means: Float32Array[] = [];
  if (!single) {
    for (const blk of manifest.se) {
      const k = blk.index;
      const probe = await session(`probe-${k}`);
      const acc = new Float64Array(blk.channels);
      let area = 0;
      for (const t of grid.tiles) {
        const owned = ownedFeeds(ort, manifest, grid, k, t);
        const all: Record<string, Tensor> = { input: tileInput(t), ...meanFeeds(means, k), ...owned.feeds };
        const feeds = Object.fromEntries(probe.inputNames.map((n) => [n, all[n]!]));
        const res = await probe.run(feeds);
        addSums(res, acc);
        area += owned.area;
        for (const v of Object.values(res)) v.dispose();
        await step();
      }
      means.push(Float32Array.from(acc, (s) => s / area));
    }
  }
  const final = await session(single ? 'full' : 'shared');
  for (const t of grid.tiles) {
    const feeds: Record<string, Tensor> = {};
    for (const name of final.inputNames) {
      if (name === 'input') feeds[name] = tileInput(t);
      else if (name === 'alpha') feeds[name] = new ort.Tensor('float32', Float32Array.of(job.alpha), []);
      else if (name.startsWith('se_mean_')) Object.assign(feeds, meanFeeds(means, Number(name.slice(8)) + 1));
    }
    const res = await final.run(feeds);
    store(t, res[OUTPUT]!);
    for (const v of Object.values(res)) v.dispose();
    await step();
  }
  return { rgb: out, width: outW, height: outH, tiles: grid.tiles.length, strategy };
}

/** Upper bound of the SE features the cached strategy holds at once (as the server's engine counts). */
export function cachedFeatureBytes(manifest: DeviceGraphManifest, grid: TileGrid, lastUse: Map<string, number>): number {
  const P = manifest.geometry.prepad;
  let bytes = 0;
  for (const blk of manifest.se) {
    if ((lastUse.get(`se_feat_${blk.index}`) ?? -1) <= blk.index) continue;
    const lv = manifest.levels[blk.index]!;
    for (const t of grid.tiles) bytes += blk.channels * levelSide(t.h, P, lv) * levelSide(t.w, P, lv) * 4;
  }
  return bytes;
}

function ownedFeeds(
  ort: OrtApi,
  manifest: DeviceGraphManifest,
  grid: TileGrid,
  k: number,
  t: Tile,
): { feeds: Record<string, Tensor>; area: number } {
  const lv = manifest.levels[k]!;
  const P = manifest.geometry.prepad;
  const [r0, r1] = ownedRange(grid.rows, t.row, grid.coreH, P, lv);
  const [c0, c1] = ownedRange(grid.cols, t.col, grid.coreW, P, lv);
  return {
    feeds: {
      own_start: new ort.Tensor('int64', BigInt64Array.of(BigInt(r0), BigInt(c0)), [2]),
      own_end: new ort.Tensor('int64', BigInt64Array.of(BigInt(r1), BigInt(c1)), [2]),
    },
    area: (r1 - r0) * (c1 - c0),
  };
}
