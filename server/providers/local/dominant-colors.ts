// Dominant colours of an image: median cut in Lab for a deterministic start, a few k-means rounds
// to settle the centres, then near-identical clusters merged (CIEDE2000) and slivers dropped, so a
// two-colour stripe comes out as two colours and not as six shades of its anti-aliased edges.
import { deltaE2000, rgbPixelsToLab, rgbToHex, rgbToLab, type Lab, type Rgb } from './color-space.js';
import type { Raster } from './raster.js';

export interface ColorShare {
  /** Mean colour of the cluster's pixels. */
  rgb: Rgb;
  lab: Lab;
  hex: string;
  /** Fraction of the image's pixels, 0..1. */
  share: number;
}

export interface DominantColorOptions {
  maxColors?: number;
  /** Clusters closer than this (CIEDE2000) are one colour. */
  mergeDistance?: number;
  /** Clusters smaller than this fraction are left out. */
  minShare?: number;
}

const INITIAL_CLUSTERS = 8;
const KMEANS_ROUNDS = 8;

interface Cluster {
  count: number;
  sum: [number, number, number];
  rgbSum: [number, number, number];
}

/** Median cut over the Lab points: split the box with the widest spread at its median. */
function medianCutCentres(points: Float32Array[], indices: Uint32Array, k: number): [number, number, number][] {
  const boxes: Uint32Array[] = [indices];
  const spread = (box: Uint32Array): { axis: number; range: number } => {
    let best = { axis: 0, range: 0 };
    for (let axis = 0; axis < 3; axis++) {
      const plane = points[axis] as Float32Array;
      let lo = Infinity;
      let hi = -Infinity;
      for (const i of box) {
        const v = plane[i] ?? 0;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi - lo > best.range) best = { axis, range: hi - lo };
    }
    return best;
  };
  while (boxes.length < k) {
    let pick = -1;
    let pickScore = 0;
    let pickAxis = 0;
    boxes.forEach((box, i) => {
      if (box.length < 2) return;
      const { axis, range } = spread(box);
      const score = range * Math.sqrt(box.length);
      if (range > 1 && score > pickScore) {
        pick = i;
        pickScore = score;
        pickAxis = axis;
      }
    });
    if (pick < 0) break;
    const box = boxes[pick] as Uint32Array;
    const plane = points[pickAxis] as Float32Array;
    const sorted = Array.from(box).sort((x, y) => (plane[x] ?? 0) - (plane[y] ?? 0));
    const half = sorted.length >> 1;
    boxes.splice(pick, 1, Uint32Array.from(sorted.slice(0, half)), Uint32Array.from(sorted.slice(half)));
  }
  return boxes.map((box) => {
    const c = [0, 0, 0].map((_, axis) => {
      const plane = points[axis] as Float32Array;
      let sum = 0;
      for (const i of box) sum += plane[i] ?? 0;
      return sum / Math.max(1, box.length);
    });
    return c as [number, number, number];
  });
}

export function dominantColors(raster: Raster, options: DominantColorOptions = {}): ColorShare[] {
  const maxColors = options.maxColors ?? 6;
  const mergeDistance = options.mergeDistance ?? 9;
  const minShare = options.minShare ?? 0.03;
  const n = raster.width * raster.height;
  if (n === 0) return [];
  const { l, a, b } = rgbPixelsToLab(raster.data, n);
  const points = [l, a, b];
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  let centres = medianCutCentres(points, all, INITIAL_CLUSTERS);

  const assignment = new Uint16Array(n);
  let clusters: Cluster[] = [];
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    clusters = centres.map(() => ({ count: 0, sum: [0, 0, 0], rgbSum: [0, 0, 0] }));
    let moved = false;
    for (let i = 0; i < n; i++) {
      const li = l[i] ?? 0;
      const ai = a[i] ?? 0;
      const bi = b[i] ?? 0;
      let best = 0;
      let bestD = Infinity;
      for (let c = 0; c < centres.length; c++) {
        const centre = centres[c] as [number, number, number];
        const d = (li - centre[0]) ** 2 + (ai - centre[1]) ** 2 + (bi - centre[2]) ** 2;
        if (d < bestD) {
          bestD = d;
          best = c;
        }
      }
      if (assignment[i] !== best) moved = true;
      assignment[i] = best;
      const cluster = clusters[best] as Cluster;
      cluster.count++;
      cluster.sum[0] += li;
      cluster.sum[1] += ai;
      cluster.sum[2] += bi;
      const o = i * 3;
      cluster.rgbSum[0] += raster.data[o] ?? 0;
      cluster.rgbSum[1] += raster.data[o + 1] ?? 0;
      cluster.rgbSum[2] += raster.data[o + 2] ?? 0;
    }
    centres = clusters.map((cl, c) =>
      cl.count ? (cl.sum.map((v) => v / cl.count) as [number, number, number]) : (centres[c] as [number, number, number]),
    );
    if (!moved && round > 0) break;
  }

  // Merge the closest pair while it is closer than mergeDistance.
  let merged = clusters.filter((cl) => cl.count > 0);
  for (;;) {
    let pair: [number, number] | null = null;
    let pairD = mergeDistance;
    const labs = merged.map((cl) => cl.sum.map((v) => v / cl.count) as unknown as Lab);
    for (let i = 0; i < merged.length; i++) {
      for (let j = i + 1; j < merged.length; j++) {
        const d = deltaE2000(labs[i] as Lab, labs[j] as Lab);
        if (d < pairD) {
          pairD = d;
          pair = [i, j];
        }
      }
    }
    if (!pair) break;
    const [i, j] = pair;
    const x = merged[i] as Cluster;
    const y = merged[j] as Cluster;
    const union: Cluster = {
      count: x.count + y.count,
      sum: [x.sum[0] + y.sum[0], x.sum[1] + y.sum[1], x.sum[2] + y.sum[2]],
      rgbSum: [x.rgbSum[0] + y.rgbSum[0], x.rgbSum[1] + y.rgbSum[1], x.rgbSum[2] + y.rgbSum[2]],
    };
    merged = merged.filter((_, k) => k !== i && k !== j).concat(union);
  }

  const shares = merged
    .map((cl) => {
      const rgb = cl.rgbSum.map((v) => Math.round(v / cl.count)) as unknown as Rgb;
      return { rgb, lab: rgbToLab(rgb[0], rgb[1], rgb[2]) as Lab, hex: rgbToHex(rgb), share: cl.count / n };
    })
    .sort((x, y) => y.share - x.share || x.hex.localeCompare(y.hex));
  const kept = shares.filter((s, i) => i === 0 || s.share >= minShare);
  return kept.slice(0, maxColors);
}

/**
 * The palette of several images, each weighing the same: shares averaged, colours closer than
 * mergeDistance joined (weighted by share), largest first.
 */
export function combineColorShares(lists: readonly ColorShare[][], options: DominantColorOptions = {}): ColorShare[] {
  const maxColors = options.maxColors ?? 6;
  const mergeDistance = options.mergeDistance ?? 9;
  const images = lists.filter((l) => l.length > 0);
  if (images.length === 0) return [];
  let pool = images.flatMap((list) => list.map((c) => ({ ...c, share: c.share / images.length })));
  for (;;) {
    let pair: [number, number] | null = null;
    let pairD = mergeDistance;
    for (let i = 0; i < pool.length; i++) {
      for (let j = i + 1; j < pool.length; j++) {
        const d = deltaE2000((pool[i] as ColorShare).lab, (pool[j] as ColorShare).lab);
        if (d < pairD) {
          pairD = d;
          pair = [i, j];
        }
      }
    }
    if (!pair) break;
    const x = pool[pair[0]] as ColorShare;
    const y = pool[pair[1]] as ColorShare;
    const share = x.share + y.share;
    const rgb = x.rgb.map((v, k) => Math.round((v * x.share + (y.rgb[k] as number) * y.share) / share)) as unknown as Rgb;
    const joined: ColorShare = { rgb, lab: rgbToLab(rgb[0], rgb[1], rgb[2]), hex: rgbToHex(rgb), share };
    pool = pool.filter((_, k) => k !== pair[0] && k !== pair[1]).concat(joined);
  }
  return pool.sort((a, b) => b.share - a.share || a.hex.localeCompare(b.hex)).slice(0, maxColors);
}
