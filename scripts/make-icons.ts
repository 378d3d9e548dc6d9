// Renders the app icons from the product mark with sharp: "any" icons with rounded corners and
// "maskable" icons whose mark sits inside the 80 % safe zone on a full-bleed background, plus the
// iOS home-screen icon. Run `npm run icons` after changing the drawing; the PNGs are committed.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const BRAND = '#4f46e5';

/** The product mark (src/components/loom-logo.tsx): warp threads crossed by two weft waves. */
function mark(scale: number): string {
  // The mark is drawn on a 40-unit grid; its threads span about 26 units around the centre.
  const k = (512 / 40) * scale;
  const o = (512 - 40 * k) / 2;
  return `<g transform="translate(${o} ${o}) scale(${k})" stroke="#fff" stroke-width="3.2" stroke-linecap="round" fill="none">
    <path d="M12 10v20M20 10v20M28 10v20" opacity=".55"/>
    <path d="M9 14.5c3 0 3-1.6 6-1.6s3 3.2 6 3.2 3-3.2 6-3.2 3 1.6 4 1.6"/>
    <path d="M9 24c3 0 3 1.6 6 1.6s3-3.2 6-3.2 3 3.2 6 3.2 3-1.6 4-1.6"/>
  </g>`;
}

function svg(kind: 'any' | 'maskable' | 'apple'): Buffer {
  const background =
    kind === 'any'
      ? `<rect x="16" y="16" width="480" height="480" rx="132" fill="${BRAND}"/>`
      : `<rect width="512" height="512" fill="${BRAND}"/>`;
  // Maskable: the threads stay inside the central 80 % circle whatever mask the launcher applies.
  const scale = kind === 'maskable' ? 0.78 : kind === 'apple' ? 0.9 : 0.94;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${background}${mark(scale)}</svg>`);
}

const out = path.resolve('public/icons');
mkdirSync(out, { recursive: true });
const jobs: [string, 'any' | 'maskable' | 'apple', number][] = [
  ['icon-192.png', 'any', 192],
  ['icon-512.png', 'any', 512],
  ['maskable-192.png', 'maskable', 192],
  ['maskable-512.png', 'maskable', 512],
  ['apple-touch-icon-180.png', 'apple', 180],
];
for (const [file, kind, size] of jobs) {
  await sharp(svg(kind), { density: 300 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(out, file));
  process.stdout.write(`public/icons/${file}\n`);
}
