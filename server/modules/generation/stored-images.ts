// Images between the file store and the providers: a stored file as a provider's input, and a
// provider's image stored with its list thumbnail.
import sharp from 'sharp';
import { ProviderError, type GeneratedImage, type InputImage } from '../../providers/capabilities.js';
import type { FileStore } from '../../storage/file-store.js';
import { makeThumbnail } from '../../storage/thumbnails.js';

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

/** Stores a provider's image and its thumbnail; an image sharp cannot read is the provider's bad answer. */
export async function saveGeneratedImage(files: FileStore, image: GeneratedImage): Promise<SavedImage> {
  let width: number;
  let height: number;
  let format: string | undefined;
  try {
    const meta = await sharp(image.data, { failOn: 'truncated' }).metadata();
    width = meta.width ?? 0;
    height = meta.pageHeight ?? meta.height ?? 0;
    format = meta.format;
  } catch (error) {
    throw new ProviderError('bad_response', 'the provider returned an image that cannot be read', { cause: error });
  }
  if (!width || !height) throw new ProviderError('bad_response', 'the provider returned an empty image');
  const mimeType = format === 'jpeg' ? 'image/jpeg' : format ? `image/${format}` : image.mimeType;
  const thumb = await makeThumbnail(image.data);
  const [file, thumbnail] = await Promise.all([
    files.put(image.data, mimeType, { width, height }),
    files.put(thumb.data, thumb.mimeType, { width: thumb.width, height: thumb.height }),
  ]);
  return { fileId: file.id, thumbnailFileId: thumbnail.id, width, height, mimeType };
}
