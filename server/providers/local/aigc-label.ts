// The visible "AIGC" label of a watermarked video, drawn as vector shapes so it needs no font (a
// fresh server may have none, and the static ffmpeg's drawtext would need one). Returned as a
// transparent PNG that ffmpeg overlays in the corner after the camera move, so it stays still.
import sharp from 'sharp';

/** Glyph outlines on a 5 x 7 grid: strokes as [x1, y1, x2, y2] lines. */
const GLYPHS: Record<'A' | 'I' | 'G' | 'C', [number, number, number, number][]> = {
  A: [
    [0, 7, 2.5, 0],
    [2.5, 0, 5, 7],
    [1, 4.4, 4, 4.4],
  ],
  I: [
    [2.5, 0, 2.5, 7],
    [1, 0, 4, 0],
    [1, 7, 4, 7],
  ],
  G: [
    [5, 1, 4, 0],
    [4, 0, 1, 0],
    [1, 0, 0, 1],
    [0, 1, 0, 6],
    [0, 6, 1, 7],
    [1, 7, 4, 7],
    [4, 7, 5, 6],
    [5, 6, 5, 4],
    [5, 4, 3, 4],
  ],
  C: [
    [5, 1, 4, 0],
    [4, 0, 1, 0],
    [1, 0, 0, 1],
    [0, 1, 0, 6],
    [0, 6, 1, 7],
    [1, 7, 4, 7],
    [4, 7, 5, 6],
  ],
};

export const AIGC_TEXT = 'AIGC';

/** SVG of the label: white strokes on a translucent dark rounded plate, `height` px tall. */
export function aigcLabelSvg(height: number): string {
  const unit = height / 11;
  const pad = 2 * unit;
  const advance = 7 * unit;
  const width = Math.round(2 * pad + advance * AIGC_TEXT.length - 2 * unit);
  const stroke = Math.max(1, unit * 1.1);
  const lines = [...AIGC_TEXT].flatMap((ch, i) =>
    GLYPHS[ch as keyof typeof GLYPHS].map(([x1, y1, x2, y2]) => {
      const ox = pad + i * advance;
      const oy = pad;
      return `<line x1="${(ox + x1 * unit).toFixed(2)}" y1="${(oy + y1 * unit).toFixed(2)}" x2="${(ox + x2 * unit).toFixed(2)}" y2="${(oy + y2 * unit).toFixed(2)}"/>`;
    }),
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.round(height)}">` +
    `<rect width="${width}" height="${Math.round(height)}" rx="${(unit * 2).toFixed(2)}" fill="#000" fill-opacity="0.45"/>` +
    `<g stroke="#fff" stroke-width="${stroke.toFixed(2)}" stroke-linecap="round" stroke-linejoin="round" fill="none">${lines.join('')}</g>` +
    `</svg>`
  );
}

export async function aigcLabelPng(height: number): Promise<Buffer> {
  return sharp(Buffer.from(aigcLabelSvg(Math.max(11, Math.round(height))))).png().toBuffer();
}
