// The converted Real-CUGAN graphs, for upscaling on the designer's device (the PWA's
// src/workers/upscale-local.worker.ts runs them with onnxruntime-web). The device uses the very
// graphs the server runs, so its output matches the server's; the manifest says how to tile them.
//   GET /models/:name/graphs/manifest.json  geometry, SE levels, variants, their inputs and sizes
//   GET /models/:name/graphs/:hash/:file    one graph; the hash names the conversion, so it is
//                                           immutable and cached for a year (and offline by the
//                                           service worker)
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { convertModel } from '../../upscale/converter.js';
import { onnxCacheDir, weightsDir } from '../../upscale/model-store.js';
import type { DeviceGraphManifest } from '../../../shared/upscale/graph-manifest.js';
import { UpscaleHttpError } from './upscale-http-error.js';

const MODEL_NAME = /^up[234]x-(conservative|no-denoise|denoise[123]x)$/;
const GRAPH_FILE = /^[\w+.-]+\.onnx$/;


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

  app.get<{ Params: { name: string } }>('/models/:name/graphs/manifest.json', async (request, reply) => {
    const m = await manifest(await checkedName(request.params.name));
    // Small and may change with a new conversion: revalidated, but usable offline from the worker's cache.
    void reply.header('cache-control', 'private, no-cache');
    return { status: 'success', ...m };
  });

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
