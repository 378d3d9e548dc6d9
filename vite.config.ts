import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { PRECACHE_IGNORES } from './src/sw/routes.ts';
import { webManifest } from './src/sw/web-manifest.ts';
import pkg from './package.json' with { type: 'json' };
import { precompress } from './scripts/vite-precompress.ts';
import { localeParts } from './scripts/vite-locale-parts.ts';
import { bootScript, type RouteModules } from './scripts/vite-boot-script.ts';
import { inlineEntryCss } from './scripts/vite-inline-entry-css.ts';
import { compileHints } from './scripts/vite-compile-hints.ts';
import { routeChunkGroups } from './scripts/vite-route-chunk-groups.ts';
import { signInBrand } from './scripts/vite-sign-in-brand.ts';
import { swSingleFile } from './scripts/vite-sw-single-file.ts';

// The PWA build. The service worker is our own TypeScript file (injectManifest) so that the
// caching rules stay readable and testable; API base URLs come from /config.json at run time.
// react-router's package exports point every bundler at its development build (warnings and
// checks, about 4 KB gzipped more on every route); its production build sits beside it.
const reactRouterProduction = fileURLToPath(new URL('./node_modules/react-router/dist/production/', import.meta.url));

/** axios's fetch adapter is never used in a page (see src/lib/api/axios-fetch-adapter-stub.ts). */
function axiosXhrOnly(): Plugin {
  const stub = fileURLToPath(new URL('./src/lib/api/axios-fetch-adapter-stub.ts', import.meta.url));
  return {
    name: 'loom-axios-xhr-only',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './fetch.js' && importer?.replace(/\\/g, '/').includes('/axios/lib/adapters/')) return stub;
      return null;
    },
  };
}

/** The modules of src/app/routing/lazy-pages.ts that start each route. */
const ROUTE_MODULES: RouteModules = {
  signIn: 'src/features/auth/components/login-page.tsx',
  // With a session, main.tsx also binds the offline data before the first render.
  shell: ['src/app/layout/app-shell.tsx', 'src/lib/offline/user-scope.ts'],
  pages: {
    '/': 'src/features/home/components/home-page.tsx',
    '/image-processing': 'src/features/image-processing/components/image-processing-page.tsx',
    '/video-generation': 'src/features/video-generation/components/video-generation-page.tsx',
    '/collections': 'src/features/collections/components/collections-page.tsx',
    // One collection: /collections/12 (the boot script reads a number as :id).
    '/collections/:id': 'src/features/collections/components/collection-page.tsx',
    '/gemini-banana': 'src/features/workshop/components/gemini-banana-page.tsx',
    '/prompt-management': 'src/features/prompts/components/prompt-management-page.tsx',
    '/history': 'src/features/history/components/history-page.tsx',
    '/settings': 'src/features/settings/components/settings-page.tsx',
  },
};

const chunkGroups = routeChunkGroups(ROUTE_MODULES.signIn);

export default defineConfig({
  base: '/',
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: `${reactRouterProduction}index.mjs` },
      { find: /^react-router\/dom$/, replacement: `${reactRouterProduction}dom-export.mjs` },
    ],
  },
  plugins: [
    axiosXhrOnly(),
    chunkGroups.plugin,
    localeParts(),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // The page offers updates itself (workbox-window): never auto-reload over running work.
      registerType: 'prompt',
      injectRegister: false,
      manifest: webManifest,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      injectManifest: {
        // svg and webmanifest are added by the plugin itself; heavy and runtime-cached files stay out.
        globPatterns: ['**/*.{js,css,html,woff2}'],
        globIgnores: PRECACHE_IGNORES,
        // A single oversized entry fails the build instead of slowing every install.
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
        buildPlugins: { vite: [swSingleFile()] },
      },
      devOptions: { enabled: false },
    }),
    // The route table of src/app/routing/lazy-pages.ts, for the boot script's preloads.
    bootScript(ROUTE_MODULES),
    // The sign-in screen's brand side in index.html, for a visitor's first paint.
    signInBrand(),
    inlineEntryCss(),
    compileHints(),
    precompress(),
  ],
  // LOOM_BUILD_ID names a build (CI sets the commit), else version + build time: each deploy is a
  // new build. The service worker reports it (GET_VERSION); the query-cache buster includes it.
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
    __APP_BUILD__: JSON.stringify(process.env.LOOM_BUILD_ID ?? `${pkg.version}+${Date.now().toString(36)}`),
  },
  // No source maps: they would hand out the readable source (the server refuses *.map as well),
  // and nothing (precache, audit, scripts) reads them.
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: { codeSplitting: { groups: chunkGroups.groups } },
      // The plugin timing report is for a plugin's authors; a build prints what went wrong only.
      checks: { pluginTimings: false },
    },
  },
  // Module workers, so the on-device upscaler loads each onnxruntime build as its own chunk, on use.
  worker: { format: 'es', rolldownOptions: { checks: { pluginTimings: false } } },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/upscale-api': 'http://127.0.0.1:8080', '/image-api': 'http://127.0.0.1:8080', '/third-api': 'http://127.0.0.1:8080', '/config.json': 'http://127.0.0.1:8080' } },
});
