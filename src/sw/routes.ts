// The service worker's routing rules as pure functions, so they are unit-tested without a worker.
// Which requests get which treatment:
//   navigation   app routes → the precached index.html (HashRouter: the path is "/" in practice)
//   config       /config.json → network first, cached copy when offline
//   locale       interface language chunks and locale files → cache first, with expiry
//   media        images, thumbnails and video posters → cache first, with expiry, per user
//   video        video files → the copy kept on this device (byte ranges answered from it), else
//                the network untouched (lib/offline/kept-videos.ts)
//   deviceManifest  the upscale graphs' manifest → network first, cached copy when offline
//   deviceModel  the upscale graphs and onnxruntime's wasm → cache first, on first use (never precached)
//   passthrough  API calls, the reachability probe, other origins, non-GET → never touched
import { SUPPORTED_LANGUAGES } from '../../shared/i18n/languages.ts';

export type RouteKind = 'navigation' | 'config' | 'locale' | 'media' | 'video' | 'deviceManifest' | 'deviceModel' | 'passthrough';

export interface RequestFacts {
  url: string;
  method: string;
  mode: string;
  destination: string;
}

/** API groups' path prefixes on this origin (see server/config.ts publicApi). Never cached, never a page. */
export const API_PREFIXES = ['/api', '/image-api', '/upscale-api', '/third-api'] as const;
export const LOCALES = SUPPORTED_LANGUAGES;

// The cache names and the eviction message are the pages' too: they live in src/lib, which never
// imports the service worker.
export { CACHE_NAMES, MEDIA_EVICTED_MESSAGE, USER_CACHE_PREFIX } from '../lib/offline/cache-names';

export const EXPIRY = {
  locales: { maxEntries: 20, maxAgeSeconds: 30 * 24 * 60 * 60 },
  media: { maxEntries: 300, maxAgeSeconds: 14 * 24 * 60 * 60 },
  // About 22 MB of graphs per 2x model (11 files) and onnxruntime's wasm (14 MB, or 27 MB for its
  // WebGPU build): room for a few models.
  deviceModels: { maxEntries: 48, maxAgeSeconds: 60 * 24 * 60 * 60 },
} as const;

const MEDIA_EXTENSIONS = /\.(png|jpe?g|webp|gif|avif|bmp)$/i;
const VIDEO_EXTENSIONS = /\.(mp4|webm|mov)$/i;
// Vite names a dynamically imported locales/xx-YY.json chunk assets/xx-YY-<hash>.js.
const LOCALE_CHUNK = new RegExp(`^/assets/(${LOCALES.join('|')})-[\\w-]{6,}\\.js$`);
const LOCALE_FILE = new RegExp(`^/locales/(${LOCALES.join('|')})\\.json$`);

export function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** A navigation the app itself answers: not an API path, not a file (sw.js, manifest, assets). */
export function isAppNavigation(pathname: string): boolean {
  if (isApiPath(pathname)) return false;
  if (pathname.startsWith('/assets/')) return false;
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.') || last.endsWith('.html');
}

const DEVICE_GRAPH = /^\/upscale-api\/models\/[\w-]+\/graphs\/([0-9a-f]+\/[\w+.-]+\.onnx|manifest\.json)$/;
const ORT_WASM = /^\/assets\/ort-wasm[\w.-]*\.wasm$/;

/** The on-device upscaler's files: the graphs' manifest, a graph, or onnxruntime's wasm. */
export function deviceModelKind(pathname: string): 'deviceManifest' | 'deviceModel' | null {
  if (ORT_WASM.test(pathname)) return 'deviceModel';
  const m = DEVICE_GRAPH.exec(pathname);
  if (!m) return null;
  return m[1] === 'manifest.json' ? 'deviceManifest' : 'deviceModel';
}

export function isLocaleRequest(pathname: string): boolean {
  return LOCALE_CHUNK.test(pathname) || LOCALE_FILE.test(pathname);
}

export function classifyRequest(facts: RequestFacts, origin: string): RouteKind {
  if (facts.method !== 'GET') return 'passthrough';
  const url = new URL(facts.url);
  if (url.origin !== origin) return 'passthrough';
  const { pathname } = url;
  if (facts.mode === 'navigate') return isAppNavigation(pathname) ? 'navigation' : 'passthrough';
  if (pathname === '/config.json') return url.search === '' ? 'config' : 'passthrough';
  if (isLocaleRequest(pathname)) return 'locale';
  const device = deviceModelKind(pathname);
  if (device) return device;
  if (facts.destination === 'video' || VIDEO_EXTENSIONS.test(pathname)) return 'video';
  if (facts.destination === 'image' || MEDIA_EXTENSIONS.test(pathname)) {
    // Media behind the API (results, thumbnails) is cached; JSON API answers never are.
    return 'media';
  }
  return 'passthrough';
}

/** Files that must never be in the precache: source maps, models, wasm, locales (runtime-cached). */
export const PRECACHE_IGNORES = [
  '**/*.map',
  '**/*.wasm',
  '**/*.onnx',
  '**/models/**',
  ...LOCALES.map((l) => `assets/${l}-*.js`),
];
