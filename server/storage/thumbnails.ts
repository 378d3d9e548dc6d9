// Small WebP previews for history lists: a 10 MB photo is not what a list of forty items should
// download. Video thumbnails are made from the video's first frame image.
import sharp from 'sharp';

export const THUMBNAIL_SIZE = 320;

export interface Thumbnail {
  data: Buffer;
  mimeType: 'image/webp';
  width: number;
  height: number;
}

/** Fits the image inside THUMBNAIL_SIZE × THUMBNAIL_SIZE (never enlarging), upright, as WebP. */
export async function makeThumbnail(image: Buffer): Promise<Thumbnail> {
  const { data, info } = await sharp(image, { failOn: 'none' })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 78 })
    .toBuffer({ resolveWithObject: true });
  return { data, mimeType: 'image/webp', width: info.width, height: info.height };
}
