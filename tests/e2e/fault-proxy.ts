// A proxy in front of the companion server that makes the faults of a trade fair's network on
// purpose: it resets a share of the upscale uploads at random (seeded, so a failure can be
// replayed), resets only large bodies while small requests answer, delays requests, and cuts the
// whole host. For resumable uploads it paces upload bodies like a booth's link, cuts every upload
// on the wire at a fixed period or after a random number of bytes, and makes outages in which only
// small requests pass. It counts what it did, and the upload bytes it received and passed on, so
// a test can say how hard the run was and how many bytes were sent per byte stored.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

const UPLOAD_PATH = '/upscale-api/upscale/single';

/** An upload: the multipart upscale call, or a tus PATCH carrying a chunk of a file. */
function isUploadRequest(method: string | undefined, path: string): boolean {
  return (method === 'POST' && path.startsWith(UPLOAD_PATH)) || method === 'PATCH';
}

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
  /** Body bytes of upload requests received from the client (every attempt, cut or not): the bytes sent. */
  uploadBytesIn: number;
  /** Of those, the bytes passed on to the server. */
  uploadBytesOut: number;
  /** Upload requests cut on the wire by the periodic or random-byte cuts. */
  uploadsCut: number;
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
  /** Paces every upload body through one shared link of this many bytes per second (0: unpaced). */
  throttleUploads(bytesPerSecond: number): void;
  /** Cuts every upload on the wire every `ms` (0 turns it off), as a network that drops every few seconds. */
  cutUploadsEvery(ms: number): void;
  /** Cuts each upload after a random number of body bytes, 1 to `maxBytes` (0 turns it off). */
  cutUploadsAtRandomBytes(maxBytes: number): void;
  /** For `ms`, resets every request whose body is larger than `bytes` while small requests pass; resolves when it ends. */
  outage(ms: number, bytes?: number): Promise<void>;
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
  let paceBytesPerSecond = 0;
  /** When the shared link is free again (ms): each piece of a body waits its turn. */
  let linkFreeAt = 0;
  let cutTimer: ReturnType<typeof setInterval> | null = null;
  let randomCutMax = 0;
  const liveUploads = new Set<http.IncomingMessage>();
  const counts: FaultCounts = {
    uploads: 0,
    resetBeforeServer: 0,
    resetAfterServer: 0,
    largeBodiesCut: 0,
    largeBodyCuts: [],
    whileHostCut: 0,
    uploadKeys: [],
    otherKeyed: [],
    uploadBytesIn: 0,
    uploadBytesOut: 0,
    uploadsCut: 0,
  };

  const cutUpload = (req: http.IncomingMessage) => {
    if (!liveUploads.delete(req)) return;
    counts.uploadsCut += 1;
    req.socket.destroy();
  };

  /** Counts an upload's body, paces it on the shared link, and cuts it after its random byte count. */
  const uploadBody = (req: http.IncomingMessage): Transform => {
    const cutAfter = randomCutMax > 0 ? 1 + Math.floor(random() * randomCutMax) : Infinity;
    let seen = 0;
    return new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        // The socket, not the request: a request whose body was read whole counts as destroyed.
        if (req.socket.destroyed) return callback();
        counts.uploadBytesIn += chunk.length;
        seen += chunk.length;
        if (seen > cutAfter) {
          cutUpload(req);
          return callback();
        }
        const pass = () => {
          if (req.socket.destroyed) return callback();
          counts.uploadBytesOut += chunk.length;
          callback(null, chunk);
        };
        if (paceBytesPerSecond <= 0) return pass();
        const now = Date.now();
        linkFreeAt = Math.max(now, linkFreeAt) + (chunk.length / paceBytesPerSecond) * 1000;
        setTimeout(pass, linkFreeAt - now);
      },
    });
  };

  const server = http.createServer((req, res) => {
    if (hostCut) {
      counts.whileHostCut += 1;
      req.socket.destroy();
      return;
    }
    const path = req.url ?? '';
    const isUpload = isUploadRequest(req.method, path);
    // A tus PATCH has no key: its upload URL names the file it carries.
    const key = String(req.headers['idempotency-key'] ?? (req.method === 'PATCH' ? path : ''));
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
      req.once('data', (chunk: Buffer) => {
        if (isUpload) counts.uploadBytesIn += chunk.length;
        req.socket.destroy();
      });
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
        liveUploads.delete(req);
        if (!res.writableFinished) upstream.destroy();
      });
      if (isUpload) {
        liveUploads.add(req);
        req.pipe(uploadBody(req)).pipe(upstream);
      } else {
        req.pipe(upstream);
      }
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
    throttleUploads(bytesPerSecond) {
      paceBytesPerSecond = bytesPerSecond;
    },
    cutUploadsEvery(ms) {
      if (cutTimer) clearInterval(cutTimer);
      cutTimer = ms > 0 ? setInterval(() => [...liveUploads].forEach(cutUpload), ms) : null;
    },
    cutUploadsAtRandomBytes(maxBytes) {
      randomCutMax = maxBytes;
    },
    async outage(ms, bytes = 2048) {
      largeBodyLimit = bytes;
      await new Promise((r) => setTimeout(r, ms));
      largeBodyLimit = 0;
    },
    retarget(next) {
      target = next;
    },
    async close() {
      if (cutTimer) clearInterval(cutTimer);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
