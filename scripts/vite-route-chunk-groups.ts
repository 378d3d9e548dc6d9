// A Vite plugin and the two code-splitting groups it feeds, so a page loads a few chunks instead
// of dozens of small ones: each chunk is a request through the service worker and a module the
// browser links on the main thread, and a signed-in page used to load 26 to 33 of them.
// - "sign-in": what the sign-in page needs beyond the entry, in one chunk. The sign-in page loads
//   all of it anyway, and the signed-in pages reuse most of it.
// - "signed-in": what two or more signed-in pages share and the sign-in page does not need, so a
//   visitor's route stays as small as before.
import path from 'node:path';
import type { Plugin } from 'vite';

interface Group {
  name: string;
  test: (id: string) => boolean;
  minShareCount?: number;
  /** Off: a captured module's imports stay where they are (the entry's, above all). */
  includeDependenciesRecursively: false;
}

/** The per-language strings keep their own chunks (scripts/vite-locale-parts.ts). */
const LOCALE = /[\\/]src[\\/]i18n[\\/]locales[\\/]/;

export function routeChunkGroups(signInModule: string): { plugin: Plugin; groups: Group[] } {
  /** The entries' static closure: in the entry chunks already. */
  const entryModules = new Set<string>();
  /** The sign-in page's static closure beyond the entries'. */
  const signInModules = new Set<string>();
  let root = process.cwd();
  const plugin: Plugin = {
    name: 'loom-route-chunk-groups',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildEnd() {
      // Called before chunks are made, with the whole module graph known.
      const visit = (id: string, into: Set<string>, skip: Set<string>) => {
        if (into.has(id) || skip.has(id)) return;
        into.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) visit(next, into, skip);
      };
      entryModules.clear();
      signInModules.clear();
      for (const id of this.getModuleIds()) if (this.getModuleInfo(id)?.isEntry) visit(id, entryModules, new Set());
      const page = path.resolve(root, signInModule);
      visit(page, signInModules, entryModules);
      // The page keeps its own chunk: the router and the boot script load it by its name.
      signInModules.delete(page);
    },
  };
  const groups: Group[] = [
    {
      name: 'sign-in',
      test: (id) => signInModules.has(id) && !LOCALE.test(id),
      includeDependenciesRecursively: false,
    },
    {
      name: 'signed-in',
      test: (id) => !entryModules.has(id) && !signInModules.has(id) && !LOCALE.test(id),
      // A module only one page uses stays in that page's chunk.
      minShareCount: 2,
      includeDependenciesRecursively: false,
    },
  ];
  return { plugin, groups };
}
