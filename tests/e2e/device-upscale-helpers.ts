// Shared by the on-device upscaling specs and the benchmark: the server's upscale of an image, the
// same image through the built upscale-local.worker in the page, and their pixel difference.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';

export async function apiToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: E2E_ADMIN.account, password: E2E_ADMIN.password }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

export interface DeviceSuite {
  readonly url: string;
  readonly token: string;
  /** The image through the built worker, in `page` opened on the server's origin. */
  device(page: Page, png: Buffer, modelName: string, opts?: DeviceOptions): ReturnType<typeof deviceUpscale>;
  /** The image on the server, then through the worker: both outputs. */
  both(
    page: Page,
    png: Buffer,
    modelName: string,
    opts?: DeviceOptions,
  ): Promise<{ fromServer: Buffer; onDevice: Awaited<ReturnType<typeof deviceUpscale>> }>;
}

/** A spec's own server, started before its tests and stopped after them, with an admin's token. */
export function deviceSuiteServer(port: number, staticDir: string): DeviceSuite {
  let server: RunningServer | undefined;
  let token = '';
  test.beforeAll(async () => {
    server = await startServer(port, { STATIC_DIR: staticDir });
    token = await apiToken(server.url);
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  const suite: DeviceSuite = {
    get url() {
      if (!server) throw new Error('the suite server has not started');
      return server.url;
    },
    get token() {
      return token;
    },
    async device(page, png, modelName, opts = {}) {
      await page.goto(`${suite.url}/config.json`);
      return deviceUpscale(page, localWorkerAsset(staticDir), token, png, modelName, opts);
    },
    async both(page, png, modelName, opts = {}) {
      const fromServer = (await serverUpscale(suite.url, token, png, modelName)).png;
      return { fromServer, onDevice: await suite.device(page, png, modelName, opts) };
    },
  };
  return suite;
}

/** The built worker's file, found in the build the server serves. */
export function localWorkerAsset(staticDir: string): string {
  const file = readdirSync(path.join(staticDir, 'assets')).find((f) =>
    /^upscale-local\.worker-[\w-]+\.js$/.test(f),
  );
  if (!file) throw new Error(`no upscale-local worker in ${staticDir}/assets`);
  return `/assets/${file}`;
}

export async function serverUpscale(
  baseUrl: string,
  token: string,
  png: Buffer,
  modelName: string,
): Promise<{ png: Buffer; ms: number }> {
  const form = new FormData();
  form.append('model_name', modelName);
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'fabric.png');
  const started = performance.now();
  const res = await fetch(`${baseUrl}/upscale-api/upscale/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`server upscale: ${res.status} ${await res.text()}`);
  const { url } = (await res.json()) as { url: string };
  const ms = performance.now() - started;
  const out = await fetch(new URL(url, baseUrl), { headers: { authorization: `Bearer ${token}` } });
  return { png: Buffer.from(await out.arrayBuffer()), ms };
}

export interface DeviceOptions {
  maxTile?: number;
  cacheBudgetBytes?: number;
  /** 'wasm' unless given; undefined leaves the choice to the worker */
  backend?: 'wasm' | 'webgpu' | undefined;
}

export interface DeviceRun {
  png: Buffer;
  stats: {
    backend: string;
    threads: number;
    tiles: number;
    tileSide: number;
    strategy: string;
    inferenceMs: number;
    totalMs: number;
  };
}

/**
 * Runs the image through the built worker in the page (which must be on the server's origin).
 * `window` is the job's span in the page's clock (posted to answered), so a caller can tell the
 * page's long tasks during the job from the harness's own work before and after it.
 */
export async function deviceUpscale(
  page: Page,
  workerUrl: string,
  token: string,
  png: Buffer,
  modelName: string,
  opts: DeviceOptions = {},
): Promise<DeviceRun & { window: { start: number; end: number } }> {
  const reply = await page.evaluate(
    async ({ workerUrl, token, base64, modelName, opts }) => {
      const image = new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' });
      const worker = new Worker(workerUrl, { type: 'module' });
      try {
        const start = performance.now();
        const done = await new Promise<{ png: Blob; stats: DeviceRun['stats']; end: number }>(
          (resolve, reject) => {
            worker.onmessage = (e: MessageEvent) => {
              const m = e.data as { type: string; png?: Blob; stats?: DeviceRun['stats']; message?: string };
              if (m.type === 'progress') return;
              if (m.type === 'done' && m.png && m.stats)
                resolve({ png: m.png, stats: m.stats, end: performance.now() });
              else reject(new Error(m.message ?? 'device upscale failed'));
            };
            worker.onerror = (e) => reject(new Error(e.message));
            worker.postMessage({
              type: 'run',
              id: 'parity',
              image,
              modelName,
              apiBase: '/upscale-api',
              token,
              backend: 'wasm',
              ...opts,
            });
          },
        );
        // A data URL read by FileReader: the bytes leave the page without a loop on its main thread.
        const dataUrl = await new Promise<string>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(reader.result as string);
          reader.onerror = () => reject(new Error('could not read the result'));
          reader.readAsDataURL(done.png);
        });
        return {
          base64: dataUrl.slice(dataUrl.indexOf(',') + 1),
          stats: done.stats,
          window: { start, end: done.end },
        };
      } finally {
        worker.terminate();
      }
    },
    { workerUrl, token, base64: png.toString('base64'), modelName, opts },
  );
  return { png: Buffer.from(reply.base64, 'base64'), stats: reply.stats, window: reply.window };
}

export async function pixelDiff(
  a: Buffer,
  b: Buffer,
): Promise<{ max: number; mean: number; width: number; height: number }> {
  const da = await sharp(a).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const db = await sharp(b).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (da.info.width !== db.info.width || da.info.height !== db.info.height)
    throw new Error(`sizes differ: ${da.info.width}x${da.info.height} vs ${db.info.width}x${db.info.height}`);
  let max = 0;
  let sum = 0;
  for (let i = 0; i < da.data.length; i++) {
    const d = Math.abs(da.data[i]! - db.data[i]!);
    if (d > max) max = d;
    sum += d;
  }
  return { max, mean: sum / da.data.length, width: da.info.width, height: da.info.height };
}
