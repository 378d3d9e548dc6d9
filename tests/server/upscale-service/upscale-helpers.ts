// Shared by the upscale service suites: multipart bodies, tiny real images made with sharp,
// event-stream parsing and raw HTTP calls (a real socket, so a test can hang up mid-request).
import http from 'node:http';
import sharp from 'sharp';
import type { ResultStore } from '../../../server/modules/upscale/result-store.js';
import type { UpscaleEnginePort } from '../../../server/modules/upscale/upscale-engine-port.js';
import { UpscaleService } from '../../../server/modules/upscale/upscale-service.js';
import { createSignedLinks } from '../../../server/storage/signed-links.js';
import { expectOnContract } from '../helpers/stream-contract.js';

export interface FilePart {
  field?: string;
  filename: string;
  contentType?: string;
  data: Buffer;
}

export function multipart(
  fields: Record<string, string | number>,
  files: FilePart[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----loom${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field ?? 'image'}"; filename="${f.filename}"\r\n` +
          `content-type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return {
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(payload.length),
    },
  };
}

/** A small image with some structure (a gradient and a block), so codecs have real content. */
export async function makeImage(
  format: 'png' | 'jpeg' | 'gif' | 'webp',
  width = 40,
  height = 24,
  alpha = false,
): Promise<Buffer> {
  const channels = alpha ? 4 : 3;
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = x > width / 3 && x < (2 * width) / 3 ? 220 : 40;
      if (alpha) raw[i + 3] = x < width / 2 ? 255 : 128;
    }
  }
  return sharp(raw, { raw: { width, height, channels } }).toFormat(format).toBuffer();
}

export interface SseEvent {
  type: string;
  index?: number;
  [key: string]: unknown;
}

/** The batch stream's events, each held to its schema (expectOnContract). */
export function parseEventStream(text: string): SseEvent[] {
  const events = text
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n'),
    )
    .filter(Boolean)
    .map((json) => JSON.parse(json) as SseEvent);
  expectOnContract('/upscale/batch', events);
  return events;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * POSTs a body over a real socket. `onChunk` sees the reply as it streams; calling the returned
 * `hangUp` destroys the connection (a client that goes away).
 */
export function rawPost(
  port: number,
  path: string,
  body: { payload: Buffer; headers: Record<string, string> },
  token: string | undefined,
  onChunk?: (soFar: string) => void,
): { done: Promise<RawResponse>; hangUp: () => void } {
  const req = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: {
      ...body.headers,
      'accept-language': 'en-US',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  const done = new Promise<RawResponse>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
        onChunk?.(text);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('aborted')));
    });
    req.on('error', reject);
  });
  req.end(body.payload);
  return { done, hangUp: () => req.destroy() };
}

export async function waitFor(
  condition: () => boolean,
  what: string,
  timeoutMs = 10_000,
  everyMs = 10,
): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** An upscale service of one slot on `engine`, its results in `store` (by default on disk under dataDir). */
export function oneSlotService(engine: UpscaleEnginePort, dataDir: string, store?: ResultStore): UpscaleService {
  return new UpscaleService({
    engines: () => engine,
    concurrency: 1,
    maxQueue: 4,
    maxPixels: 1e6,
    maxInflightBytes: 1e7,
    resultTtlSeconds: 3600,
    dataDir,
    ...(store ? { store } : {}),
    resultLinks: createSignedLinks(new Uint8Array(32), 'upscaleResult', '/upscale-api/results', 3600),
    now: () => new Date(),
  });
}
