// Generated test images the benchmarks share, the same pixels on every run (seeded noise): a
// photo-like and a fabric-like image for the upscale benchmarks (bench-upscale.ts on the server,
// bench-upscale-device.ts in the browser, so both sides upscale the same images), and a model
// figure with a striped fabric for the generation benchmarks' analyses.
import sharp from 'sharp';

/** Smooth gradients and a blurred shape with fine noise: edges plus texture like a photo. */
export function photoLike(w: number, h: number): Promise<Buffer> {
  const px = Buffer.alloc(w * h * 3);
  let s = 42;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const blob = Math.hypot(x - w * 0.4, y - h * 0.5) < h * 0.3 ? 60 : 0;
      for (let c = 0; c < 3; c++) {
        s = (s * 1103515245 + 12345) >>> 0;
        const v =
          70 + (x / w) * 90 + (y / h) * 40 * (c + 1) + blob * (c === 1 ? -1 : 1) + ((s >>> 16) % 25) - 12;
        px[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .blur(0.8)
    .png()
    .toBuffer();
}

/** Twill weave: diagonal threads, colour stripes and yarn irregularity. */
export function fabricLike(w: number, h: number): Promise<Buffer> {
  const px = Buffer.alloc(w * h * 3);
  let s = 7;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const warp = ((x + y) >> 2) % 2 === 0;
      const stripe = Math.floor(x / 48) % 3;
      s = (s * 1103515245 + 12345) >>> 0;
      const yarn = ((s >>> 16) % 31) - 15 + 12 * Math.sin(y * 0.9 + (x >> 3));
      const base = warp ? [150, 60 + stripe * 40, 70] : [40, 70, 120 + stripe * 30];
      for (let c = 0; c < 3; c++)
        px[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base[c]! + yarn)));
    }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * A model image (a figure in a dress on a light ground, `modelWidth` wide, 2:3) and a 256 px
 * pattern image (blue and red stripes on cream), as PNGs for an analysis form.
 */
export async function designImages(modelWidth: number): Promise<{ model: Buffer; pattern: Buffer }> {
  const w = modelWidth;
  const h = Math.round(modelWidth * 1.5);
  const model = await sharp(
    Buffer.from(
      // Drawn on a 512 x 768 canvas and scaled to the size asked for.
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 512 768"><rect width="512" height="768" fill="#e8e2d8"/>` +
        `<ellipse cx="256" cy="150" rx="70" ry="90" fill="#c89f84"/><path d="M150 260 L362 260 L420 740 L92 740 Z" fill="#6b7fa8"/></svg>`,
    ),
  )
    .png()
    .toBuffer();
  const stripes = Array.from(
    { length: 16 },
    (_, i) => `<rect x="${i * 16}" width="8" height="256" fill="#${i % 2 ? 'b03a48' : '2e86ab'}"/>`,
  ).join('');
  const pattern = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#f4f1de"/>${stripes}</svg>`,
    ),
  )
    .png()
    .toBuffer();
  return { model, pattern };
}
