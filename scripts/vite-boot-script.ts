// A Vite plugin: index.html's boot script (src/boot/theme-init.js) goes inline into <head>,
// minified, in place of the `<!-- boot-script -->` marker. Inline, it costs no request before the
// first paint; the companion server allows it by its hash (server/http/inline-scripts.ts).
// In a build it also receives the chunk names each route needs (ROUTE_CHUNKS), so it can preload
// the opening route's chunks while the entry script downloads.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { minifySync, type Plugin } from 'vite';

const MARKER = '<!-- boot-script -->';
const LOCALE_CHUNK = /[\\/]src[\\/]i18n[\\/]locales[\\/]([a-z]{2}-[A-Z]{2})-(first|rest)\.js$/;

export interface RouteModules {
  /** The sign-in page's module. */
  signIn: string;
  /** What every signed-in start needs before its first render: the pages' layout and more. */
  shell: readonly string[];
  /** Each signed-in page's module by its path. */
  pages: Record<string, string>;
}

/** What the boot script preloads: files under the site's base, each list without the entry's own. */
export interface RouteChunks {
  signIn: string[];
  shell: string[];
  pages: Record<string, string[]>;
  /** Per language: the first screen's strings, then the rest. */
  strings: Record<string, string[]>;
}

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}
type BundleLike = Record<string, ChunkLike | { type: 'asset' }>;

/** The chunk names the boot script needs, read from a finished bundle. */
export function routeChunks(
  bundle: BundleLike,
  routes: RouteModules,
  root: string,
  base: string,
): RouteChunks {
  const chunks = Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: ChunkLike, into = new Set<string>()) => {
    if (into.has(start.fileName)) return into;
    into.add(start.fileName);
    for (const file of start.imports) {
      const next = byFile.get(file);
      if (next) closure(next, into);
    }
    return into;
  };
  const cssOf = (file: string) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])];
  // The entry and its static imports, with their styles: index.html loads those already.
  const loaded = new Set<string>();
  for (const entry of chunks.filter((c) => c.isEntry)) closure(entry, loaded);
  for (const file of [...loaded]) cssOf(file).forEach((css) => loaded.add(css));

  const filesOf = (module: string): string[] => {
    const id = path.resolve(root, module);
    const chunk = chunks.find((c) => c.facadeModuleId === id);
    if (!chunk) throw new Error(`boot script: no chunk for ${module}`);
    const files: string[] = [];
    // Each chunk's styles before it: Vite's helper waits for them before it runs the chunk.
    for (const file of closure(chunk)) files.push(...cssOf(file), file);
    return [...new Set(files)].filter((file) => !loaded.has(file)).map((file) => base + file);
  };

  const strings: Record<string, string[]> = {};
  for (const chunk of chunks) {
    const m = chunk.facadeModuleId ? LOCALE_CHUNK.exec(chunk.facadeModuleId) : null;
    if (!m) continue;
    const list = (strings[m[1]!] ??= []);
    list[m[2] === 'first' ? 0 : 1] = base + chunk.fileName;
  }
  return {
    signIn: filesOf(routes.signIn),
    shell: [...new Set(routes.shell.flatMap(filesOf))],
    pages: Object.fromEntries(
      Object.entries(routes.pages).map(([route, module]) => [route, filesOf(module)]),
    ),
    strings,
  };
}

export function bootScript(routes: RouteModules, script = 'src/boot/theme-init.js'): Plugin {
  let root = process.cwd();
  let base = '/';
  return {
    name: 'loom-boot-script',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      // After Vite's own tags, so the bundle is complete.
      order: 'post',
      handler(html, ctx) {
        if (!html.includes(MARKER)) throw new Error(`boot script: index.html has no ${MARKER}`);
        const file = path.resolve(root, script);
        const chunks = ctx.bundle ? routeChunks(ctx.bundle as BundleLike, routes, root, base) : null;
        const source = readFileSync(file, 'utf8').replace(
          /\bROUTE_CHUNKS\b(?=\);?\s*$)/,
          JSON.stringify(chunks),
        );
        const { code, errors } = minifySync(file, source, {});
        if (errors.length) throw new Error(`boot script: ${errors.map((e) => e.message).join('; ')}`);
        // No "</script" can occur in it (the route table holds file names only).
        return html.replace(MARKER, `<script>${code.trim()}</script>`);
      },
    },
  };
}
