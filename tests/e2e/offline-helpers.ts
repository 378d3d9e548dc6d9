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
  close(): Promise<void>;
}

export async function startOriginProxy(targetPort: number, port = 0): Promise<OriginProxy> {
  const sockets = new Set<Socket>();
  const writes: WriteLog[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    const isWrite = req.method !== 'GET' && req.method !== 'HEAD' && path.startsWith('/api/prompts');
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, path, method: req.method, headers: req.headers }, (up) => {
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
    });
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

export async function apiCall<T>(baseUrl: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; data: T; message: string }> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}), 'accept-language': 'en-US' },
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
    await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
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
      stores[name] = { count: all.length, userKeys: [...new Set(all.map((r) => String((r as { userKey?: string }).userKey)))] };
    }
    db.close();
    return { stores, caches: await caches.keys() };
  });
}

export async function waitForPersistedCache(page: Page, userKey: string): Promise<void> {
  for (let i = 0; i < 50; i += 1) {
    const data = await storedData(page);
    if (data.stores['query-cache']?.userKeys.includes(userKey)) return;
    await page.waitForTimeout(200);
  }
  throw new Error(`no persisted query cache for ${userKey}`);
}

/** A port nobody listens on right now (other suites and colleagues run servers on this machine too). */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
