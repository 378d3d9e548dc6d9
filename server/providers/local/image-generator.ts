// Candidate images of the built-in engine: compositions of the designer's model and pattern images
// (see compositions.ts), each labelled in every language (the reader's is shown) and handed over as
// it is ready.
// With one image to regenerate, variations of it instead (regeneration.ts).
import type { GeneratedImage, ImageGenerationInput, ImageGenerator, InputImage } from '../capabilities.js';
import { ProviderError } from '../capabilities.js';
import { imageCanvasSize, type Size } from './canvas-size.js';
import { throwIfCancelled } from './cancellation.js';
import { CATALOGUES, catalogue } from './catalogue.js';
import { labStats, type LabStats } from './color-transfer.js';
import { hexToRgb, rgbToLab, type Rgb } from './color-space.js';
import {
  encodeJpeg,
  closerCrop,
  grid,
  halfDrop,
  mirrorRepeat,
  modelAdjusted,
  modelToned,
  modelWithPanel,
  paletteCard,
  rotateHue,
  swatchCloseUp,
  swatchTiled,
} from './compositions.js';
import { combineColorShares, type ColorShare } from './dominant-colors.js';
import { measureImage, type ImageFacts } from './image-facts.js';
import { LOCAL_PREVIEW_MODEL, LOCAL_PROVIDER } from './model-name.js';
import { decodeRaster, decodeRasterCover, imageSize, type Raster } from './raster.js';
import { regenerationPlan, type PlannedImage } from './regeneration.js';

/** The workflow's six; a larger ask is served but bounded. */
const MAX_COUNT = 12;
const MAX_SOURCES_PER_ROLE = 6;
const LANGUAGES = Object.keys(CATALOGUES) as (keyof typeof CATALOGUES)[];

interface Sources {
  patterns: { data: Buffer; facts: ImageFacts }[];
  models: Buffer[];
  palette: ColorShare[];
  patternStats?: LabStats;
}

/** Palette of an earlier analysis, for when no pattern image came along. */
function paletteFromAnalysis(input: ImageGenerationInput): ColorShare[] {
  const colors = input.analysis?.colors ?? [];
  return colors.flatMap((c) => {
    try {
      const rgb = hexToRgb(c.hex) as Rgb;
      return [{ rgb, lab: rgbToLab(rgb[0], rgb[1], rgb[2]), hex: c.hex.toLowerCase(), share: c.share }];
    } catch {
      return [];
    }
  });
}

function compositionPlan(sources: Sources, size: Size, count: number): PlannedImage[] {
  const { patterns, models, palette, patternStats } = sources;
  const pattern = (i: number) => patterns[i % patterns.length] as { data: Buffer; facts: ImageFacts };
  const model = (i: number) => models[i % models.length] as Buffer;
  // Finished pictures are kept for the lookbook grid, which reuses them.
  const made = new Map<string, Promise<Raster>>();
  const once = (key: string, render: () => Promise<Raster>) => () => {
    let result = made.get(key);
    if (!result) {
      result = render();
      made.set(key, result);
    }
    return result;
  };
  const colourway = (i: number, hue: number): PlannedImage => ({
    label: (c) => c.colourway(hue),
    render: once(`colourway-${i}-${hue}`, () => swatchTiled(pattern(i).data, pattern(i).facts, size, hue)),
  });

  const plan: PlannedImage[] = [];
  const extras: PlannedImage[] = [];
  if (patterns.length && models.length) {
    const toned = once('toned', () => modelToned(model(0), patternStats as LabStats, size));
    const tiledSwatch = once('tiled', () => swatchTiled(pattern(2).data, pattern(2).facts, size));
    const colourway120 = colourway(0, 120);
    plan.push(
      { label: (c) => c.modelToned, render: toned },
      { label: (c) => c.modelPanel, render: () => modelWithPanel(model(1), pattern(1).data, pattern(1).facts, palette, size) },
      { label: (c) => c.swatchTiled, render: tiledSwatch },
      { label: (c) => c.swatchCloseUp, render: () => swatchCloseUp(pattern(3).data, size) },
      colourway120,
      {
        label: (c) => c.lookbook,
        render: async () =>
          grid([await modelAdjusted(model(0), size, {}), await tiledSwatch(), await toned(), await colourway120.render()], size),
      },
    );
    extras.push(
      { label: (c) => c.halfDrop, render: () => halfDrop(pattern(0).data, pattern(0).facts, size) },
      { label: (c) => c.mirror, render: () => mirrorRepeat(pattern(1).data, pattern(1).facts, size) },
      { label: (c) => c.paletteCard, render: () => paletteCard(pattern(0).data, palette, size) },
      { label: (c) => c.modelWarm, render: () => modelAdjusted(model(1), size, { warmth: 0.5 }) },
      { label: (c) => c.modelCool, render: () => modelAdjusted(model(1), size, { warmth: -0.5 }) },
    );
  } else if (patterns.length) {
    plan.push(
      { label: (c) => c.swatchTiled, render: () => swatchTiled(pattern(0).data, pattern(0).facts, size) },
      { label: (c) => c.swatchCloseUp, render: () => swatchCloseUp(pattern(1).data, size) },
      { label: (c) => c.halfDrop, render: () => halfDrop(pattern(2).data, pattern(2).facts, size) },
      { label: (c) => c.paletteCard, render: () => paletteCard(pattern(0).data, palette, size) },
      colourway(0, 120),
      colourway(0, 240),
    );
    extras.push({ label: (c) => c.mirror, render: () => mirrorRepeat(pattern(0).data, pattern(0).facts, size) });
  } else {
    const reframed = once('reframed', () => modelAdjusted(model(0), size, {}));
    const warm = once('warm', () => modelAdjusted(model(1), size, { warmth: 0.5 }));
    const cool = once('cool', () => modelAdjusted(model(2), size, { warmth: -0.5 }));
    const muted = once('muted', () => modelAdjusted(model(4), size, { saturation: 0.55, contrast: 0.92 }));
    plan.push(
      { label: (c) => c.modelReframed, render: reframed },
      { label: (c) => c.modelWarm, render: warm },
      { label: (c) => c.modelCool, render: cool },
      { label: (c) => c.modelHighKey, render: () => modelAdjusted(model(3), size, { lightness: 0.35, contrast: 0.9 }) },
      { label: (c) => c.modelMuted, render: muted },
      models.length >= 2
        ? {
            label: (c) => c.modelGrid,
            render: async () => grid(await Promise.all(models.slice(0, 4).map((m) => decodeRasterCover(m, size.width, size.height))), size),
          }
        : { label: (c) => c.lookbook, render: async () => grid([await reframed(), await warm(), await cool(), await muted()], size) },
    );
    extras.push({ label: (c) => c.modelDetail, render: async () => closerCrop(await reframed(), 1.4, 0.35) });
  }
  plan.push(...extras);
  // Past the list: colourways of the patterns (or hue-shifted model photos), no two alike.
  for (let i = 0; plan.length < count; i++) {
    const hue = 30 + ((i * 67) % 300);
    plan.push(
      patterns.length
        ? colourway(i, hue)
        : { label: (c) => c.colourway(hue), render: async () => rotateHue(await modelAdjusted(model(i), size, {}), hue) },
    );
  }
  return plan.slice(0, count);
}

async function gatherSources(input: ImageGenerationInput): Promise<Sources> {
  const ofRole = (roles: InputImage['role'][]) =>
    input.sources.filter((s) => roles.includes(s.role)).slice(0, MAX_SOURCES_PER_ROLE);
  const patterns: Sources['patterns'] = [];
  for (const p of ofRole(['pattern'])) {
    throwIfCancelled(input.signal);
    patterns.push({ data: p.data, facts: await measureImage(p.data) });
  }
  const models = ofRole(['model', 'first-frame', 'last-frame']).map((m) => m.data);
  const measured = combineColorShares(patterns.map((p) => p.facts.colors));
  const palette = measured.length ? measured : paletteFromAnalysis(input);
  const first = patterns[0];
  const patternStats = first ? labStats(await decodeRaster(first.data, 256)) : undefined;
  return { patterns, models, palette, patternStats };
}

export function createLocalImageGenerator(): ImageGenerator {
  return {
    async generateImages(input: ImageGenerationInput, onImage: (image: GeneratedImage, index: number) => void) {
      throwIfCancelled(input.signal);
      const count = Math.max(0, Math.min(MAX_COUNT, Math.floor(input.count)));
      const regenerating = input.sources.find((s) => s.role === 'source');
      const first = regenerating ?? input.sources[0];
      if (!first) {
        throw new ProviderError('invalid_request', 'the built-in engine composes from model or pattern images; none were given', {
          provider: LOCAL_PROVIDER,
        });
      }
      const size = imageCanvasSize(input.aspect, await imageSize(first.data));
      let plan: PlannedImage[];
      if (regenerating) {
        let decoded: Promise<Raster> | undefined;
        const source = () => (decoded ??= decodeRasterCover(regenerating.data, size.width, size.height));
        plan = regenerationPlan(source, input.prompt, count);
      } else {
        plan = compositionPlan(await gatherSources(input), size, count);
      }
      const images: GeneratedImage[] = [];
      for (const [index, item] of plan.entries()) {
        throwIfCancelled(input.signal);
        const raster = await item.render();
        const image: GeneratedImage = {
          data: await encodeJpeg(raster),
          mimeType: 'image/jpeg',
          width: raster.width,
          height: raster.height,
          label: item.label(catalogue(input.language).labels, input.language),
          labels: Object.fromEntries(LANGUAGES.map((l) => [l, item.label(catalogue(l).labels, l)])),
        };
        images.push(image);
        onImage(image, index);
      }
      throwIfCancelled(input.signal);
      return { images, model: LOCAL_PREVIEW_MODEL };
    },
  };
}
