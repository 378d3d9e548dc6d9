// What the sheet import worker answers (its messages are described in protocol.ts): the Files
// read, a ZIP unpacked, each image's first bytes sniffed, then one import; a refused sheet or
// archive comes back as an answer naming why, never as a thrown error.
import { sniffImageType } from '../../../shared/images/image-types';
import type { Language } from '../../../shared/i18n/languages';
import type { CollectionImage } from '../../lib/collections/collection-check';
import { collectionVocabulary } from '../../lib/collections/collection-vocabulary';
import { isImageName } from '../../lib/collections/image-match';
import { MAX_SHEET_BYTES, MAX_ZIP_BYTES } from '../../lib/collections/sheet-fields';
import { importCollection } from './import-collection';
import type { ImageSource, ImportAnswer, ImportRequest, TemplateFormat } from './protocol';
import { unzipImages } from './read-zip';
import { MB, SheetImportError } from './sheet-error';
import { buildTemplate } from './template';

interface PickedImage {
  file: File;
  /** The path inside the folder or the archive (a File's own name has no folders). */
  path: string;
}

async function imageFiles(source: ImageSource): Promise<PickedImage[]> {
  if (source.kind === 'none') return [];
  if (source.kind === 'folder')
    return source.files
      .map((file, i) => ({ file, path: source.paths?.[i] || file.webkitRelativePath || file.name }))
      .filter((picked) => isImageName(picked.path));
  if (source.file.size > MAX_ZIP_BYTES)
    throw new SheetImportError('tooLarge', { name: source.file.name, max: MAX_ZIP_BYTES / MB });
  const entries = unzipImages(new Uint8Array(await source.file.arrayBuffer()), source.file.name);
  return entries.map(({ path, bytes }) => ({
    file: new File([bytes as Uint8Array<ArrayBuffer>], path.slice(path.lastIndexOf('/') + 1), {
      type: sniffImageType(bytes) ?? '',
    }),
    path,
  }));
}

async function describe({ file, path }: PickedImage): Promise<CollectionImage> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return { path, size: file.size, type: sniffImageType(head) };
}

export const sheetImportApi = {
  async import(request: ImportRequest): Promise<ImportAnswer> {
    try {
      // The sheet's bound is checked before a byte of it is read, and the sheet before the images.
      if (request.sheet.size > MAX_SHEET_BYTES)
        throw new SheetImportError('tooLarge', { name: request.sheet.name, max: MAX_SHEET_BYTES / MB });
      const sheetBytes = new Uint8Array(await request.sheet.arrayBuffer());
      const files = await imageFiles(request.images);
      const images = await Promise.all(files.map(describe));
      const imported = await importCollection(collectionVocabulary(), {
        sheetName: request.sheet.name,
        sheetBytes,
        images,
        ...(request.mapping ? { mapping: request.mapping } : {}),
      });
      return { ok: true, imageFiles: files.map((picked) => picked.file), ...imported };
    } catch (error) {
      if (error instanceof SheetImportError)
        return { ok: false, key: error.key, messageKey: error.messageKey, values: error.values };
      throw error;
    }
  },

  template(language: Language, format: TemplateFormat): Promise<Blob> {
    return buildTemplate(collectionVocabulary(), language, format);
  },
};

export type SheetImportWorkerApi = typeof sheetImportApi;
