/// <reference lib="webworker" />
// Loom Studio's service worker: precached shell and route chunks, the runtime rules of routes.ts,
// and a prompt-style update (a new version waits until the page sends SKIP_WAITING).
import { clientsClaim, registerQuotaErrorCallback } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { Route, Router } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { MIN_EVICTION_BYTES, evictLeastRecentlyUsedMedia } from '../lib/db/lru-eviction';
import { matchKeptVideo } from '../lib/offline/kept-videos';
import { rangeResponse } from '../lib/offline/video-range';
import { CACHE_NAMES, EXPIRY, MEDIA_EVICTED_MESSAGE, classifyRequest, type RouteKind } from './routes';

declare const self: ServiceWorkerGlobalScope;
/** Set by vite.config.ts: which build this worker belongs to. */
declare const __APP_BUILD__: string;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

/**
 * A video file: the copy kept on this device when there is one (the player's byte ranges answered
 * from it, 206, so it seeks offline), else the network as if no worker were here. Never stored on
 * the way: keeping is the person's choice (lib/offline/kept-videos.ts).
 */
async function videoHandler({ request }: { request: Request }): Promise<Response> {
  const kept = await matchKeptVideo(self.caches, request.url, self.location.origin).catch(() => null);
  if (kept) return rangeResponse(request.headers.get('range'), kept);
  return fetch(request);
}

const handlers: Record<
  Exclude<RouteKind, 'passthrough'>,
  ReturnType<typeof createHandlerBoundToURL> | CacheFirst | NetworkFirst | typeof videoHandler
> = {
  navigation: createHandlerBoundToURL('/index.html'),
  config: new NetworkFirst({ cacheName: CACHE_NAMES.config, networkTimeoutSeconds: 4 }),
  locale: new CacheFirst({
    cacheName: CACHE_NAMES.locales,
    plugins: [new ExpirationPlugin({ ...EXPIRY.locales })],
  }),
  // No purgeOnQuotaError: it drops the whole cache silently. The callback below removes the least
  // recently used entries instead and tells the pages.
  media: new CacheFirst({
    cacheName: CACHE_NAMES.media,
    plugins: [new ExpirationPlugin({ ...EXPIRY.media })],
  }),
  video: videoHandler,
  deviceManifest: new NetworkFirst({ cacheName: CACHE_NAMES.deviceModels, networkTimeoutSeconds: 4 }),
  deviceModel: new CacheFirst({
    cacheName: CACHE_NAMES.deviceModels,
    plugins: [new ExpirationPlugin({ ...EXPIRY.deviceModels })],
  }),
};

registerQuotaErrorCallback(async () => {
  const report = await evictLeastRecentlyUsedMedia(MIN_EVICTION_BYTES, self.caches);
  for (const client of await self.clients.matchAll({ type: 'window' }))
    client.postMessage({ type: MEDIA_EVICTED_MESSAGE, report });
});

const router = new Router();
for (const kind of Object.keys(handlers) as (keyof typeof handlers)[]) {
  const matches = ({ request }: { request: Request }) =>
    classifyRequest(
      { url: request.url, method: request.method, mode: request.mode, destination: request.destination },
      self.location.origin,
    ) === kind;
  router.registerRoute(new Route(matches, handlers[kind]));
}
router.addFetchListener();
// The page sends CACHE_URLS after the first load, so the locale chunk and media it fetched before
// this worker took control are cached too (an offline reload then finds them).
router.addCacheListener();

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // workbox-window's messageSW() listens on the port it sent.
  if (type === 'GET_VERSION') event.ports[0]?.postMessage({ build: __APP_BUILD__ });
});
