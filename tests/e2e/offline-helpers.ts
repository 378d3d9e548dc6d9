// Helpers of the offline browser tests: a proxy in front of the companion server that counts the
// prompt writes the server applied and can take the whole origin away (setOffline does not stop
// the service worker's own fetches), sign-in through the real API, and views into the page's
// IndexedDB and Cache Storage.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Page } from '@playwright/test';

export interface WriteLog {
  method: string;
  path: string;
  key: string;
  status: number;
  replayed: boolean;
}

export interface OriginProxy {
  url: string;
  /** Prompt mutations that reached the server, with its answer. */
  writes: WriteLog[];
  /** Writes the server applied (2xx, not an idempotent replay). */
  applied(): WriteLog[];
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** The next `count` prompt writes get this status (and Retry-After) without reaching the server. */
  failWrites(count: number, status: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

export async function startOriginProxy(targetPort: number, port = 0): Promise<OriginProxy> {
  const sockets = new Set<Socket>();
  const writes: WriteLog[] = [];
  let failing: { count: number; status: number; retryAfterSeconds?: number } | null = null;
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    const isWrite = req.method !== 'GET' && req.method !== 'HEAD' && path.startsWith('/api/prompts');
    if (isWrite && failing && failing.count > 0) {
      failing.count -= 1;
      const { status, retryAfterSeconds } = failing;
      writes.push({
        method: req.method ?? '',
        path,
        key: String(req.headers['idempotency-key'] ?? ''),
        status,
        replayed: false,
      });
      req.resume();
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(retryAfterSeconds === undefined
          ? {}
          : { 'retry-after': String(retryAfterSeconds), 'access-control-expose-headers': 'Retry-After' }),
      });
      res.end(JSON.stringify({ code: status, message: 'Service temporarily unavailable', data: null }));
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, path, method: req.method, headers: req.headers },
      (up) => {
        if (isWrite) {
          writes.push({
            method: req.method ?? '',
            path,
            key: String(req.headers['idempotency-key'] ?? ''),
            status: up.statusCode ?? 0,
            replayed: up.headers['idempotent-replayed'] === 'true',
          });
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    writes,
    applied: () => writes.filter((w) => w.status >= 200 && w.status < 300 && !w.replayed),
    async cut() {
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      });
    },
    async restore() {
      await new Promise<void>((r) => server.listen(bound, '127.0.0.1', r));
    },
    failWrites(count, status, retryAfterSeconds) {
      failing = { count, status, retryAfterSeconds };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface Grant {
  token: string;
  refresh_token?: string;
  user: { id: number; account: string };
}

export async function apiCall<T>(
  baseUrl: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; data: T; message: string }> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'accept-language': 'en-US',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T; message: string };
  return { status: res.status, data: json.data, message: json.message };
}

export async function signInApi(baseUrl: string, account: string, password: string): Promise<Grant> {
  const r = await apiCall<Grant>(baseUrl, 'POST', '/auth/login-password', undefined, { account, password });
  if (r.status !== 200) throw new Error(`sign-in of ${account} failed: ${r.message}`);
  return r.data;
}

/** Puts a session where the PWA keeps it (spec §3 keys), in English, then opens `at`. */
export async function openSignedIn(page: Page, baseUrl: string, grant: Grant, at: string): Promise<void> {
  await page.goto(`${baseUrl}/#/login`);
  await page.evaluate((g) => {
    localStorage.setItem('token', g.token);
    if (g.refresh_token) localStorage.setItem('refreshToken', g.refresh_token);
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('username', g.user.account);
    localStorage.setItem('userInfo', JSON.stringify(g.user));
    localStorage.setItem('language', 'en-US');
  }, grant);
  // A full load (not a same-document hash change), so the app starts with the session in place.
  await page.goto('about:blank');
  await page.goto(`${baseUrl}/${at}`);
}

export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // `ready` resolves as soon as a worker is active, which may still be "activating".
    const registration = await navigator.serviceWorker.ready;
    const worker = registration.active;
    if (worker && worker.state !== 'activated') {
      await new Promise<void>((resolve) => {
        const settle = () => worker.state === 'activated' && resolve();
        worker.addEventListener('statechange', settle);
        settle();
      });
    }
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
    );
  });
}

export interface StoredData {
  stores: Record<string, { count: number; userKeys: string[] }>;
  caches: string[];
}

/** What this origin keeps in IndexedDB ('loom-studio') and Cache Storage, read from the page. */
export function storedData(page: Page): Promise<StoredData> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('loom-studio');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const stores: Record<string, { count: number; userKeys: string[] }> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      const all = await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(name).objectStore(name).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      stores[name] = {
        count: all.length,
        userKeys: [...new Set(all.map((r) => String((r as { userKey?: string }).userKey)))],
      };
    }
    db.close();
    return { stores, caches: await caches.keys() };
  });
}

/**
 * Every IndexedDB database of this origin (indexedDB.databases()) and every cache, searched for
 * any of `needles` (a user key, a text the user typed, a media URL): what still mentions them.
 */
export function tracesOf(page: Page, needles: string[]): Promise<{ databases: string[]; traces: string[] }> {
  return page.evaluate(async (wanted) => {
    const traces: string[] = [];
    const infos = await indexedDB.databases();
    for (const info of infos) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name as string);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(store).objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const text = JSON.stringify(all);
        for (const needle of wanted)
          if (text.includes(needle)) traces.push(`${info.name}/${store}: ${needle}`);
      }
      db.close();
    }
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys();
      for (const request of requests)
        for (const needle of wanted)
          if (request.url.includes(needle)) traces.push(`cache ${name}: ${needle}`);
    }
    return { databases: infos.map((i) => String(i.name)), traces };
  }, needles);
}

/** Shows an image through the page, so the service worker caches it and records its last use. */
export async function showImage(page: Page, src: string): Promise<void> {
  await page.evaluate(
    (url) =>
      new Promise<void>((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve();
        img.onerror = () => reject(new Error(`image ${url} did not load`));
        img.src = url;
        document.body.append(img);
      }),
    src,
  );
}

/** Waits until the service worker's media cache holds `path` with its expiry record. */
export async function waitForCachedMedia(page: Page, path: string): Promise<void> {
  await page.waitForFunction(async (p) => {
    const cached = await (await caches.open('loom-user-media')).match(p);
    if (!cached) return false;
    const infos = await indexedDB.databases();
    if (!infos.some((i) => i.name === 'workbox-expiration')) return false;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('workbox-expiration');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = await new Promise<{ url: string; cacheName: string }[]>((resolve) => {
      const req = db.transaction('cache-entries').objectStore('cache-entries').getAll();
      req.onsuccess = () => resolve(req.result as { url: string; cacheName: string }[]);
    });
    db.close();
    return all.some((e) => e.cacheName === 'loom-user-media' && e.url.endsWith(p));
  }, path);
}

export async function waitForPersistedCache(page: Page, userKey: string): Promise<void> {
  for (let i = 0; i < 50; i += 1) {
    const data = await storedData(page);
    if (data.stores['query-cache']?.userKeys.includes(userKey)) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`no persisted query cache for ${userKey}`);
}

export { freePort } from '../support/processes.js';
