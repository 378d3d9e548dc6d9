// The layout's import rules, checked on the source text: the PWA never imports the server, and code
// both runtimes run (shared/) imports neither side nor Node's or the browser's modules.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => path.join(dir, f));
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return found;
}

/** The repository folder an import lands in (its first path segment), or the bare specifier. */
function target(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  return path.relative(root, path.resolve(root, path.dirname(file), specifier)).split(path.sep)[0]!;
}

describe('import boundaries', () => {
  it('no file under src/ imports from server/', () => {
    const offenders = sourceFiles('src').flatMap((f) =>
      importsOf(f)
        .filter((s) => target(f, s) === 'server')
        .map((s) => `${f} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('shared/ imports only shared/ and no runtime-specific module', () => {
    const offenders = sourceFiles('shared').flatMap((f) =>
      importsOf(f)
        .filter((s) => !s.startsWith('.') || target(f, s) !== 'shared')
        .map((s) => `${f} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
