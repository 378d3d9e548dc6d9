// The service worker is one file (a worker script cannot load chunks the way a page does).
// vite-plugin-pwa 2.0 asks rolldown for that with `inlineDynamicImports`, which rolldown has
// deprecated in favour of `codeSplitting: false` and warns about at every build; this plugin of
// the service worker's own build says it the current way.
import type { Plugin } from 'vite';

export function swSingleFile(): Plugin {
  return {
    name: 'loom-sw-single-file',
    outputOptions(options) {
      if (!('inlineDynamicImports' in options)) return null;
      const { inlineDynamicImports, ...rest } = options;
      return inlineDynamicImports ? { ...rest, codeSplitting: false } : rest;
    },
  };
}
