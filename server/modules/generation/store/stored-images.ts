// Images between the file store and the providers: a stored file as a provider's input, and a
// provider's image stored with its list thumbnail.
import type { GeneratedImage, InputImage } from '../../../providers/capabilities.js';
import { rasterGeneratedImage } from '../../../providers/shared/images.js';
import type { FileStore } from '../../../storage/file-store.js';
import { makeThumbnail } from '../../../storage/thumbnails.js';

export async function inputImage(files: FileStore, fileId: string, role: InputImage['role']): Promise<InputImage> {
  const [info, data] = await Promise.all([files.info(fileId), files.read(fileId)]);
  if (!info || !data) throw new Error(`stored file ${fileId} is missing`);
  return {
    data,
    mimeType: info.mimeType,
    role,
    ...(info.width ? { width: info.width } : {}),
    ...(info.height ? { height: info.height } : {}),
  };
}

export interface SavedImage {
  fileId: string;
  thumbnailFileId: string;
  width: number;
  height: number;
  mimeType: string;
}

/**
 * Stores a provider's image and its thumbnail. Only a raster PNG, JPEG, WebP or GIF is stored as
 * it is; anything else is re-encoded to PNG or refused as the provider's bad answer
 * (rasterGeneratedImage), whatever the provider labelled it.
 */
export async function saveGeneratedImage(files: FileStore, image: GeneratedImage): Promise<SavedImage> {
  const raster = await rasterGeneratedImage(image.data, 'the provider');
  const { width, height, mimeType } = raster;
  const thumb = await makeThumbnail(raster.data);
  const [file, thumbnail] = await Promise.all([
    files.put(raster.data, mimeType, { width, height }),
    files.put(thumb.data, thumb.mimeType, { width: thumb.width, height: thumb.height }),
  ]);
  return { fileId: file.id, thumbnailFileId: thumbnail.id, width, height, mimeType };
}
