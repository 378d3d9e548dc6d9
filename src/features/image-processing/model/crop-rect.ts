// The square the variant preview sends to every model: 128 source pixels by default, kept inside
// the image and on whole pixels, moved by pointer (centre) or keys.

export interface CropRect {
  x: number;
  y: number;
  size: number;
}

export const DEFAULT_CROP_SIZE = 128;

/** A crop of `size` (or the image's short side if smaller) centred on (cx, cy), inside the image. */
export function cropAround(
  cx: number,
  cy: number,
  imageWidth: number,
  imageHeight: number,
  size = DEFAULT_CROP_SIZE,
): CropRect {
  const side = Math.max(1, Math.min(size, imageWidth, imageHeight));
  const x = Math.round(Math.min(Math.max(cx - side / 2, 0), imageWidth - side));
  const y = Math.round(Math.min(Math.max(cy - side / 2, 0), imageHeight - side));
  return { x, y, size: side };
}

export function centreCrop(imageWidth: number, imageHeight: number, size = DEFAULT_CROP_SIZE): CropRect {
  return cropAround(imageWidth / 2, imageHeight / 2, imageWidth, imageHeight, size);
}

/** Arrow keys move the crop by 8 px (a JPEG block), with Shift by a quarter of the crop. */
export function moveCropByKey(
  crop: CropRect,
  key: string,
  shiftKey: boolean,
  imageWidth: number,
  imageHeight: number,
): CropRect | null {
  const step = shiftKey ? Math.max(8, Math.round(crop.size / 4)) : 8;
  const delta: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const move = delta[key];
  if (!move) return null;
  const half = crop.size / 2;
  return cropAround(crop.x + half + move[0], crop.y + half + move[1], imageWidth, imageHeight, crop.size);
}
