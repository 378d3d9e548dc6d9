// Reads a collection's sheet and images off the page's thread: parsing, unpacking a ZIP, matching
// and checking 500 rows against thousands of image names never blocks the page. The messages are
// described in sheet-import/protocol.ts; the page reaches it through
// src/lib/workers/sheet-import-bridge.ts.
import * as Comlink from 'comlink';
import { sniffImageType } from '../../shared/images/image-types';
import type { Language } from '../../shared/i18n/languages';
import type { CollectionImage } from '../lib/collections/collection-check';
import { collectionVocabulary } from '../lib/collections/collection-vocabulary';
import { isImageName } from '../lib/collections/image-match';
import { MAX_ZIP_BYTES } from '../lib/collections/sheet-fields';
import { importCollection } from './sheet-import/import-collection';
import type { ImageSource, ImportAnswer, ImportRequest, TemplateFormat } from './sheet-import/protocol';
import { unzipImages } from './sheet-import/read-zip';
import { MB, SheetImportError } from './sheet-import/sheet-error';
import { buildTemplate } from './sheet-import/template';

async function imageFiles(source: ImageSource): Promise<File[]> {
  if (source.kind === 'none') return [];
  if (source.kind === 'folder')
    return source.files.filter((f) => isImageName(f.webkitRelativePath || f.name));
  if (source.file.size > MAX_ZIP_BYTES)
    throw new SheetImportError('tooLarge', { name: source.file.name, max: MAX_ZIP_BYTES / MB });
  const entries = unzipImages(new Uint8Array(await source.file.arrayBuffer()), source.file.name);
  return entries.map(
    ({ path, bytes }) =>
      new File([bytes as Uint8Array<ArrayBuffer>], path, { type: sniffImageType(bytes) ?? '' }),
  );
}

async function describe(file: File): Promise<CollectionImage> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return { path: file.webkitRelativePath || file.name, size: file.size, type: sniffImageType(head) };
}

const api = {
  async import(request: ImportRequest): Promise<ImportAnswer> {
    try {
      const files = await imageFiles(request.images);
      const images = await Promise.all(files.map(describe));
      const sheetBytes = new Uint8Array(await request.sheet.arrayBuffer());
      const imported = await importCollection(collectionVocabulary(), {
        sheetName: request.sheet.name,
        sheetBytes,
        images,
        ...(request.mapping ? { mapping: request.mapping } : {}),
      });
      return { ok: true, imageFiles: files, ...imported };
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

export type SheetImportWorkerApi = typeof api;

Comlink.expose(api);
