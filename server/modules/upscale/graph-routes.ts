// The converted Real-CUGAN graphs, for upscaling on the designer's device (the PWA's
// src/workers/upscale-local.worker.ts runs them with onnxruntime-web). The device uses the very
// conversion the server runs, so its output matches the server's (its stages keep the SE features
// float32, where the server's `+f16` stages pass them on as float16: both within 1/255 of the
// untiled result); the manifest says how to tile them.
//   GET /models/:name/graphs/manifest.json  geometry, SE levels, variants, their inputs and sizes
//   GET /models/:name/graphs/:hash/:file    one graph; the hash names the conversion, so it is
//                                           immutable and cached for a year (and offline by the
//                                           service worker)
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { convertModel } from '../../upscale/converter.js';
import { onnxCacheDir, weightsDir } from '../../upscale/model-store.js';
import { UpscaleHttpError } from './upscale-http-error.js';

const MODEL_NAME = /^up[234]x-(conservative|no-denoise|denoise[123]x)$/;
const GRAPH_FILE = /^[\w+.-]+\.onnx$/;

const deviceGraphManifestSchema = z.object({
  name: z.string(),
  hash: z.string(),
  geometry: z.object({ scale: z.number(), prepad: z.number(), align: z.number() }),
  se: z.array(z.object({ index: z.number(), channels: z.number() })),
  levels: z.array(z.object({ ratio: z.number(), offset: z.number() })),
  variants: z.record(z.string(), z.string()),
  inputs: z.record(z.string(), z.array(z.string())),
  sizes: z.record(z.string(), z.number()).meta({ description: "bytes of each variant's file" }),
});
type DeviceGraphManifest = z.output<typeof deviceGraphManifestSchema>;

/** What the manifest call answers, for the OpenAPI document (the upscale service's own shape). */
export const graphManifestSchema = deviceGraphManifestSchema
  .extend({ status: z.literal('success') })
  .meta({ id: 'GraphManifest' });

export function registerGraphRoutes(
  app: FastifyInstance,
  o: { modelsDir: string; knownModel: (name: string) => Promise<boolean> },
): void {
  const converted = new Map<string, Promise<DeviceGraphManifest>>();
  const manifest = (name: string): Promise<DeviceGraphManifest> => {
    let m = converted.get(name);
    if (!m) {
      const dir = weightsDir(o.modelsDir);
      m = convertModel(
        path.join(dir, `${name}.param`),
        path.join(dir, `${name}.bin`),
        onnxCacheDir(o.modelsDir),
      ).then(async (info) => {
        const sizes: Record<string, number> = {};
        for (const [variant, file] of Object.entries(info.variants))
          sizes[variant] = (await stat(path.join(info.dir, file))).size;
        return {
          name,
          hash: path.basename(info.dir).slice(name.length + 1),
          geometry: info.geometry,
          se: info.se.map((s) => ({ index: s.index, channels: s.channels })),
          levels: info.levels,
          variants: info.variants,
          inputs: info.inputs,
          sizes,
        };
      });
      converted.set(name, m);
      m.catch(() => converted.delete(name));
    }
    return m;
  };
  const checkedName = async (name: string): Promise<string> => {
    if (!MODEL_NAME.test(name) || !(await o.knownModel(name)))
      throw new UpscaleHttpError(400, 'unknown_model', { model: name }, { field: 'model_name' });
    return name;
  };

  const manifestDoc = {
    summary: "A model's converted graphs for the device: geometry, SE levels, variants",
    tags: ['upscale'],
    response: { schema: graphManifestSchema },
  };
  app.get<{ Params: { name: string } }>(
    '/models/:name/graphs/manifest.json',
    { config: { openapi: manifestDoc } },
    async (request, reply): Promise<z.output<typeof graphManifestSchema>> => {
      const m = await manifest(await checkedName(request.params.name));
      // Small and may change with a new conversion: revalidated, but usable offline from the worker's cache.
      void reply.header('cache-control', 'private, no-cache');
      return { status: 'success', ...m };
    },
  );

  app.get<{ Params: { name: string; hash: string; file: string } }>(
    '/models/:name/graphs/:hash/:file',
    async (request, reply) => {
      const { hash, file } = request.params;
      const m = await manifest(await checkedName(request.params.name));
      if (hash !== m.hash || !GRAPH_FILE.test(file) || !Object.values(m.variants).includes(file))
        throw new UpscaleHttpError(404, 'not_found');
      const full = path.join(onnxCacheDir(o.modelsDir), `${m.name}-${m.hash}`, file);
      const size = (await stat(full)).size;
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(full));
    },
  );
}
