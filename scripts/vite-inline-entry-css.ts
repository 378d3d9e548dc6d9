// A Vite plugin: the entry's stylesheet (tokens, base styles and the start-up spinner, 5 KB) goes
// into index.html as a <style> element instead of a <link>: the first paint then waits for the
// document alone, not for a second request that competes with the scripts (the CSP allows inline
// styles). The file stays in the build for anything that still asks for it.
import type { Plugin } from 'vite';

const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="([^"]+\.css)">/g;

export function inlineEntryCss(): Plugin {
  let base = '/';
  return {
    name: 'loom-inline-entry-css',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        return html.replace(STYLESHEET, (tag, href: string) => {
          const asset = ctx.bundle?.[href.startsWith(base) ? href.slice(base.length) : href];
          if (asset?.type !== 'asset') return tag;
          const css = String(asset.source);
          if (/<\/style/i.test(css)) throw new Error(`inline entry CSS: ${href} contains "</style"`);
          return `<style>${css.trim()}</style>`;
        });
      },
    },
  };
}
