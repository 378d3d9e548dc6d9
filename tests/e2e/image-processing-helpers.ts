// Helpers of the image enhancement browser tests: a counting proxy in front of the companion
// server (concurrent upscale requests, idempotency keys, a switch that cuts the connection),
// small PNGs made in Node, and signing in through the real API.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { E2E_ADMIN } from './server-process';

export interface CountingProxy {
  url: string;
  /** Most upscale requests open at the same time so far. */
  maxConcurrent: number;
  active: number;
  /** Idempotency-Key of every upscale request that reached the proxy, in order. */
  keys: string[];
  /** Upscale requests the proxy passed on to the server. */
  forwarded: number;
  /** Upscale requests passed on to the server and not yet answered or dropped: what the server holds. */
  serverActive: number;
  /** Most upscale requests the server held at the same time so far. */
  maxServerConcurrent: number;
  /** Idempotency-Key of every upscale request passed on to the server, in order. */
  forwardedKeys: string[];
  /** Keys answered with `idempotent-replayed: true`: the server answered from an earlier attempt, no run of its own. */
  replayedKeys: string[];
  /** Keys answered 200 from a run of their own (no replay header): each finished run of the model. */
  ranKeys: string[];
  resetCounters(): void;
  /** Stops accepting connections and drops the open ones, like a server that went away. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

const UPSCALE_PATH = '/upscale-api/upscale/single';

export async function startCountingProxy(
  targetPort: number,
  options: { delayMs?: number } = {},
): Promise<CountingProxy> {
  const sockets = new Set<Socket>();
  let port = 0;
  const state = {
    maxConcurrent: 0,
    active: 0,
    keys: [] as string[],
    forwarded: 0,
    serverActive: 0,
    maxServerConcurrent: 0,
    forwardedKeys: [] as string[],
    replayedKeys: [] as string[],
    ranKeys: [] as string[],
  };

  const server = http.createServer((req, res) => {
    const isUpscale = req.method === 'POST' && (req.url ?? '').startsWith(UPSCALE_PATH);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (isUpscale) state.active -= 1;
    };
    if (isUpscale) {
      state.active += 1;
      state.maxConcurrent = Math.max(state.maxConcurrent, state.active);
      state.keys.push(String(req.headers['idempotency-key'] ?? ''));
    }
    res.on('close', finish);
    const forward = () => {
      if (req.destroyed) return finish();
      const key = String(req.headers['idempotency-key'] ?? '');
      let held = false;
      const release = () => {
        if (!held) return;
        held = false;
        state.serverActive -= 1;
      };
      if (isUpscale) {
        state.forwarded += 1;
        state.forwardedKeys.push(key);
        held = true;
        state.serverActive += 1;
        state.maxServerConcurrent = Math.max(state.maxServerConcurrent, state.serverActive);
      }
      const upstream = http.request(
        { host: '127.0.0.1', port: targetPort, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          if (isUpscale && up.statusCode === 200) {
            if (up.headers['idempotent-replayed'] === 'true') state.replayedKeys.push(key);
            else state.ranKeys.push(key);
          }
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          up.on('end', release);
        },
      );
      upstream.on('error', () => {
        release();
        res.destroy();
      });
      upstream.on('close', release);
      // A client that goes away (cancel) cancels the server's work too.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      req.pipe(upstream);
    };
    if (isUpscale && options.delayMs) setTimeout(forward, options.delayMs);
    else forward();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    get maxConcurrent() {
      return state.maxConcurrent;
    },
    get active() {
      return state.active;
    },
    get keys() {
      return state.keys;
    },
    get forwarded() {
      return state.forwarded;
    },
    get serverActive() {
      return state.serverActive;
    },
    get maxServerConcurrent() {
      return state.maxServerConcurrent;
    },
    get forwardedKeys() {
      return state.forwardedKeys;
    },
    get replayedKeys() {
      return state.replayedKeys;
    },
    get ranKeys() {
      return state.ranKeys;
    },
    resetCounters() {
      state.maxConcurrent = state.active;
      state.maxServerConcurrent = state.serverActive;
      state.keys = [];
      state.forwarded = 0;
      state.forwardedKeys = [];
      state.replayedKeys = [];
      state.ranKeys = [];
    },
    async cut() {
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      });
    },
    async restore() {
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A small PNG whose pixels depend on the seed, so every image of a batch is different. */
export function makePng(width: number, height: number, seed: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = (x * 7 + seed * 31) & 255;
      row[2 + x * 3] = (y * 5 + seed * 17) & 255;
      row[3 + x * 3] = ((x ^ y) * 3 + seed) & 255;
    }
    rows.push(row);
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 255]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function pngFiles(count: number, size = 32, offset = 0) {
  return Array.from({ length: count }, (_, i) => ({
    name: `fabric-${String(i + offset + 1).padStart(2, '0')}.png`,
    mimeType: 'image/png',
    buffer: makePng(size, size, i + offset + 1),
  }));
}

/** Signs in through the API and leaves the session where the PWA keeps it (spec §3). */
export async function signIn(page: Page, baseUrl: string, language = 'en-US'): Promise<void> {
  const res = await fetch(`${baseUrl}/api/auth/login-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: E2E_ADMIN.account, password: E2E_ADMIN.password }),
  });
  const body = (await res.json()) as {
    data: { token: string; refresh_token?: string; user: { account: string } };
  };
  // A same-origin page that is not the app: the sign-in screen would redirect on its own.
  await page.goto(`${baseUrl}/config.json`);
  await page.evaluate(
    ({ grant, language }) => {
      localStorage.setItem('token', grant.token);
      if (grant.refresh_token) localStorage.setItem('refreshToken', grant.refresh_token);
      localStorage.setItem('isLoggedIn', 'true');
      localStorage.setItem('username', grant.user.account);
      localStorage.setItem('userInfo', JSON.stringify(grant.user));
      localStorage.setItem('language', language);
    },
    { grant: body.data, language },
  );
  await page.goto(`${baseUrl}/#/image-processing`);
}
