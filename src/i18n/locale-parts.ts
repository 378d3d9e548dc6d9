// Each language's strings come in two chunks built from its one file in locales/ (the build plugin
// scripts/vite-locale-parts.ts): what the sign-in screen and the app's frame need ("first"), and
// the signed-in pages' strings ("rest", loaded when a signed-in page opens). The sign-in route then
// carries about a third of a dictionary. A dotted path takes one branch of a section.
export const FIRST_SCREEN_KEYS = [
  'app',
  'common',
  'nav',
  'roles',
  'auth',
  'errors',
  'voice',
  'offline',
  'update',
  'work',
  'install',
  'storage',
  'settings.language',
] as const;

export type LocalePart = 'first' | 'rest';

type Tree = { [key: string]: string | Tree };

/** The part of a language's strings named by `part`. */
export function pickLocalePart(strings: Tree, part: LocalePart): Tree {
  if (part === 'rest') {
    const first = new Set<string>(FIRST_SCREEN_KEYS.filter((k) => !k.includes('.')));
    return Object.fromEntries(Object.entries(strings).filter(([key]) => !first.has(key)));
  }
  const picked: Tree = {};
  for (const path of FIRST_SCREEN_KEYS) {
    const [head, ...tail] = path.split('.');
    let source: string | Tree | undefined = strings[head!];
    let target = picked;
    let key = head!;
    for (const step of tail) {
      if (typeof source !== 'object') break;
      target = (target[key] ??= {}) as Tree;
      source = source[step];
      key = step;
    }
    if (source !== undefined) target[key] = source;
  }
  return picked;
}
