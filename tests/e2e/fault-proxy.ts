// A proxy in front of the companion server that makes the faults of a trade fair's network on
// purpose: it resets a share of the upscale uploads at random (seeded, so a failure can be
// replayed), resets only large bodies while small requests answer, delays requests, and cuts the
// whole host. It counts what it did, so a test can say how hard the run was.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const UPLOAD_PATH = '/upscale-api/upscale/single';

/** Mulberry32: a small seeded generator, so "30 % at random" is the same 30 % on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FaultCounts {
  /** Upscale uploads that reached the proxy (every attempt, resends included). */
  uploads: number;
  /** Uploads reset before any byte reached the server. */
  resetBeforeServer: number;
  /** Uploads the server answered whose answer was reset on the way back (the server did the work). */
  resetAfterServer: number;
  /** Requests refused because only large bodies were being cut. */
  largeBodiesCut: number;
  /** Idempotency-Key and time of each of those, in order. */
  largeBodyCuts: { key: string; at: number }[];
  /** Requests of any kind that arrived while the host was cut. */
  whileHostCut: number;
  /** Idempotency-Key of every upload attempt, in order. */
  uploadKeys: string[];
  /** Idempotency-Key of every request that was not an upload (the prompt outbox), with its method and path. */
  otherKeyed: { key: string; method: string; path: string }[];
}

export interface FaultProxy {
  url: string;
  counts: FaultCounts;
  /** Resets this share (0–1) of the upscale uploads, half before the server sees them and half after it answered. */
  resetUploads(share: number): void;
  /** Resets every request whose body is larger than `bytes` (0 turns it off); small requests pass. */
  cutLargeBodies(bytes: number): void;
  /** Holds each upscale upload this long before passing it on. */
  delayUploads(ms: number): void;
  /** Stops accepting connections and drops the open ones, like a host that went away. */
  cutHost(): Promise<void>;
  restoreHost(): Promise<void>;
  /** Points the proxy at another port (a restarted server). */
  retarget(port: number): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number, seed = 1): Promise<FaultProxy> {
  const random = seededRandom(seed);
  const sockets = new Set<Socket>();
  let target = targetPort;
  let resetShare = 0;
  let largeBodyLimit = 0;
  let delayMs = 0;
  let hostCut = false;
  const counts: FaultCounts = {
    uploads: 0,
    resetBeforeServer: 0,
    resetAfterServer: 0,
    largeBodiesCut: 0,
    largeBodyCuts: [],
    whileHostCut: 0,
    uploadKeys: [],
    otherKeyed: [],
  };

  const server = http.createServer((req, res) => {
    if (hostCut) {
      counts.whileHostCut += 1;
      req.socket.destroy();
      return;
    }
    const path = req.url ?? '';
    const isUpload = req.method === 'POST' && path.startsWith(UPLOAD_PATH);
    const key = String(req.headers['idempotency-key'] ?? '');
    if (isUpload) {
      counts.uploads += 1;
      counts.uploadKeys.push(key);
    } else if (key) {
      counts.otherKeyed.push({ key, method: req.method ?? '', path });
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (largeBodyLimit > 0 && length > largeBodyLimit) {
      counts.largeBodiesCut += 1;
      counts.largeBodyCuts.push({ key, at: Date.now() });
      // Read a little first, as a middlebox that gives up mid-upload does.
      req.once('data', () => req.socket.destroy());
      return;
    }
    let resetAfter = false;
    if (isUpload && resetShare > 0 && random() < resetShare) {
      if (random() < 0.5) {
        counts.resetBeforeServer += 1;
        req.once('data', () => req.socket.destroy());
        return;
      }
      resetAfter = true;
    }
    const forward = () => {
      if (req.destroyed) return;
      const upstream = http.request(
        { host: '127.0.0.1', port: target, path, method: req.method, headers: req.headers },
        (up) => {
          if (resetAfter) {
            // The server did the work; the answer never reaches the device.
            counts.resetAfterServer += 1;
            up.resume();
            up.on('end', () => req.socket.destroy());
            return;
          }
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      // A server that is down or restarting: the device sees a dropped connection, as it would.
      upstream.on('error', () => req.socket.destroy());
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      req.pipe(upstream);
    };
    if (isUpload && delayMs > 0) setTimeout(forward, delayMs);
    else forward();
  });
  server.keepAliveTimeout = 1000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    resetUploads(share) {
      resetShare = share;
    },
    cutLargeBodies(bytes) {
      largeBodyLimit = bytes;
    },
    delayUploads(ms) {
      delayMs = ms;
    },
    async cutHost() {
      hostCut = true;
      for (const s of sockets) s.destroy();
    },
    async restoreHost() {
      hostCut = false;
    },
    retarget(next) {
      target = next;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
