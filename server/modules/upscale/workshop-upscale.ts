// The workshop's image enlargement on the built-in engine: our Real-CUGAN engine (the same factory
// as the upscale service, one engine on its own thread, started on first use), 2x with the
// conservative model. An input past WORKSHOP_MAX_INPUT_PIXELS is first fitted to it, so one item
// stays within the workshop's time budget on a two-core machine; the job's abort signal stops the
// engine mid-image. The result names the model, the scale and the sizes, shown as the item's model.
import sharp from 'sharp';
import type { EnlargeResult, Upscale } from '../../providers/local/image-tone-correction.js';
import { realEngineFactory } from './real-engine.js';
import type { UpscaleEnginePort } from './upscale-engine-port.js';

export const WORKSHOP_UPSCALE_MODEL = 'up2x-conservative';
/** About 1 MP in, 4 MP out: scripts/bench-workshop-upscale.ts prints what it costs on this machine. */
export const WORKSHOP_MAX_INPUT_PIXELS = 1_048_576;

export interface WorkshopUpscaleOptions {
  modelsDir: string;
  threads: number;
  /** The upscale service's own pixel limit (UPSCALE_MAX_PIXELS): the engine refuses past it. */
  maxPixels: number;
  /** The upscale service's job memory (UPSCALE_MEMORY_BUDGET_MB): the engine sizes its tiles from it. */
  memoryBudgetBytes: number;
  /** The upscale service's convolution form (UPSCALE_CONVOLUTIONS); undefined: as the CPU suits. */
  winograd: boolean | undefined;
  maxInputPixels?: number;
}

export interface WorkshopUpscale {
  upscale: Upscale;
  close(): Promise<void>;
}

/** Fits an image to a pixel budget (kept as is when it is within it), upright and as PNG. */
async function fitted(image: Buffer, maxPixels: number): Promise<{ data: Buffer; width: number; height: number }> {
  const meta = await sharp(image, { pages: 1 }).metadata();
  const width = meta.autoOrient.width;
  const height = meta.pageHeight ?? meta.autoOrient.height;
  if (width * height <= maxPixels && (meta.orientation ?? 1) === 1) return { data: image, width, height };
  const factor = Math.min(1, Math.sqrt(maxPixels / (width * height)));
  const w = Math.max(8, Math.floor(width * factor));
  const h = Math.max(8, Math.floor(height * factor));
  const data = await sharp(image, { pages: 1 }).autoOrient().resize(w, h, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
  return { data, width: w, height: h };
}

export function createWorkshopUpscale(o: WorkshopUpscaleOptions): WorkshopUpscale {
  const factory = realEngineFactory({
    modelsDir: o.modelsDir,
    threads: o.threads,
    concurrency: 1,
    maxPixels: o.maxPixels,
    memoryBudgetBytes: o.memoryBudgetBytes,
    winograd: o.winograd,
  });
  const limit = Math.min(o.maxInputPixels ?? WORKSHOP_MAX_INPUT_PIXELS, o.maxPixels);
  let engine: UpscaleEnginePort | undefined;
  return {
    async upscale(image: Buffer, signal: AbortSignal): Promise<EnlargeResult> {
      signal.throwIfAborted();
      const input = await fitted(image, limit);
      signal.throwIfAborted();
      engine ??= factory(0);
      const result = await engine.upscale(input.data, { modelName: WORKSHOP_UPSCALE_MODEL, format: 'png', signal });
      return {
        data: result.data,
        model: `Real-CUGAN ${WORKSHOP_UPSCALE_MODEL} ×${result.scale} (${input.width}×${input.height} → ${result.width}×${result.height})`,
      };
    },
    async close() {
      const running = engine;
      engine = undefined;
      await running?.close();
    },
  };
}
