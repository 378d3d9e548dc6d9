// Pixels in and out of the on-device upscaler, with the browser's own codecs (OffscreenCanvas in
// the worker). The network is RGB only, so transparency is split off as the server splits it:
// an image with any transparent pixel keeps an alpha plane, which is scaled on its own (the
// canvas's high-quality smoothing where the server uses a cubic kernel) and joined back. The
// canvas keeps colours premultiplied, so a transparent pixel's colour reads as black: its
// picture differs a little from the server's (the SE blocks average over the whole image).

export interface DecodedImage {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** 8-bit alpha plane, only when some pixel is not opaque */
  alpha?: Uint8ClampedArray;
}

function context(width: number, height: number): OffscreenCanvasRenderingContext2D {
  const ctx = new OffscreenCanvas(width, height).getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  return ctx;
}

export async function decode(blob: Blob): Promise<DecodedImage> {
  const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const { width, height } = bitmap;
  const ctx = context(width, height);
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const rgb = new Uint8Array(width * height * 3);
  const alpha = new Uint8ClampedArray(width * height);
  let opaque = true;
  for (let i = 0, j = 0, k = 0; i < rgba.length; i += 4, j += 3, k++) {
    rgb[j] = rgba[i]!;
    rgb[j + 1] = rgba[i + 1]!;
    rgb[j + 2] = rgba[i + 2]!;
    alpha[k] = rgba[i + 3]!;
    if (rgba[i + 3] !== 255) opaque = false;
  }
  return opaque ? { rgb, width, height } : { rgb, width, height, alpha };
}

/** The alpha plane scaled `scale` times, drawn as a grey image so the canvas smooths it. */
export function upscaleAlpha(
  alpha: Uint8ClampedArray,
  width: number,
  height: number,
  scale: number,
): Uint8ClampedArray {
  const grey = new ImageData(width, height);
  for (let k = 0, i = 0; k < alpha.length; k++, i += 4) {
    grey.data[i] = grey.data[i + 1] = grey.data[i + 2] = alpha[k]!;
    grey.data[i + 3] = 255;
  }
  const small = context(width, height);
  small.putImageData(grey, 0, 0);
  const big = context(width * scale, height * scale);
  big.imageSmoothingEnabled = true;
  big.imageSmoothingQuality = 'high';
  big.drawImage(small.canvas, 0, 0, width * scale, height * scale);
  const scaled = big.getImageData(0, 0, width * scale, height * scale).data;
  const out = new Uint8ClampedArray(width * scale * height * scale);
  for (let k = 0, i = 0; k < out.length; k++, i += 4) out[k] = scaled[i]!;
  return out;
}

export function encode(
  rgb: Uint8Array,
  width: number,
  height: number,
  alpha?: Uint8ClampedArray,
): Promise<Blob> {
  const ctx = context(width, height);
  const image = ctx.createImageData(width, height);
  const d = image.data;
  for (let i = 0, j = 0, k = 0; j < rgb.length; i += 4, j += 3, k++) {
    d[i] = rgb[j]!;
    d[i + 1] = rgb[j + 1]!;
    d[i + 2] = rgb[j + 2]!;
    d[i + 3] = alpha ? alpha[k]! : 255;
  }
  ctx.putImageData(image, 0, 0);
  return ctx.canvas.convertToBlob({ type: 'image/png' });
}
