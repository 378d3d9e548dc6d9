// A Vite plugin: index.html carries the sign-in screen's brand side, rendered at build time in each
// language (scripts/render-sign-in-brand.ts), in place of the `<!-- sign-in-brand -->` marker. A
// visitor's first paint then shows the brand and tagline where the sign-in screen puts them, while
// the scripts load, instead of a spinner alone (src/app/styles/boot-spinner.css shows the reader's
// language; React replaces it all on its first render).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Plugin } from 'vite';

const MARKER = '<!-- sign-in-brand -->';

/** Each language's markup, its element ids made unique per language (five copies in one page). */
function brandMarkup(byLanguage: Record<string, string>): string {
  return Object.entries(byLanguage)
    .map(([language, html]) => {
      const unique = html.replace(
        /(\s)(id|aria-labelledby)="([^"]+)"/g,
        (_, space: string, attribute: string, id: string) => `${space}${attribute}="boot-${language}-${id}"`,
      );
      return `<div class="boot-brand" lang="${language}">${unique}</div>`;
    })
    .join('');
}

export function signInBrand(): Plugin {
  let root = process.cwd();
  return {
    name: 'loom-sign-in-brand',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml(html) {
      if (!html.includes(MARKER)) throw new Error(`sign-in brand: index.html has no ${MARKER}`);
      // A child process: the component's JSX and imports compile under tsx as the PWA's config says.
      const output = execFileSync(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'scripts/render-sign-in-brand.ts')],
        {
          cwd: root,
          env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.app.json') },
          encoding: 'utf8',
        },
      );
      return html.replace(MARKER, brandMarkup(JSON.parse(output) as Record<string, string>));
    },
  };
}
