// A Vite plugin: the entry chunk and the chunks it imports statically (React, the router, i18next,
// the API client: what every start evaluates) begin with V8's explicit compile hint, so Chromium
// compiles their functions on a background thread while they download instead of one by one on
// the main thread as the app starts (https://v8.dev/blog/explicit-compile-hints). Browsers
// without it read a comment.
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

interface ChunkLike {
  type: 'chunk';
  isEntry: boolean;
  imports: string[];
  code: string;
}

export function compileHints(): Plugin {
  return {
    name: 'loom-compile-hints',
    apply: 'build',
    enforce: 'post',
    // After minification, which would drop the comment, and after Vite's own code at the top of
    // the entry (the preload map): the hint must be the file's first line.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = bundle as unknown as Record<string, ChunkLike | { type: 'asset' }>;
        const hinted = new Set<string>();
        const visit = (file: string) => {
          const chunk = chunks[file];
          if (chunk?.type !== 'chunk' || hinted.has(file)) return;
          hinted.add(file);
          if (!chunk.code.startsWith(COMPILE_HINT)) chunk.code = COMPILE_HINT + chunk.code;
          chunk.imports.forEach(visit);
        };
        for (const [file, chunk] of Object.entries(chunks))
          if (chunk.type === 'chunk' && chunk.isEntry) visit(file);
      },
    },
  };
}
