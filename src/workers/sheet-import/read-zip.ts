// Unpacks a ZIP of images (fflate), bounded before it costs memory: the number of entries, the
// unpacked total, and each entry's ratio of unpacked to packed size (a ZIP bomb). fflate decodes
// each entry into a buffer of its declared size, so an entry that lies about it cannot grow past
// the bound either. Only image names are unpacked; system files (`__MACOSX/`, `.DS_Store`) and
// anything else are skipped.
import { unzipSync } from 'fflate';
import { isImageName } from '../../lib/collections/image-match';
import { MAX_ZIP_ENTRIES, MAX_ZIP_RATIO, MAX_ZIP_UNPACKED_BYTES } from '../../lib/collections/sheet-fields';
import { MB, SheetImportError } from './sheet-error';

export interface ZipBounds {
  entries: number;
  unpackedBytes: number;
  ratio: number;
}

export const ZIP_BOUNDS: ZipBounds = {
  entries: MAX_ZIP_ENTRIES,
  unpackedBytes: MAX_ZIP_UNPACKED_BYTES,
  ratio: MAX_ZIP_RATIO,
};

/** The archive's image entries by path, in archive order. */
export function unzipImages(
  bytes: Uint8Array,
  name: string,
  bounds: ZipBounds = ZIP_BOUNDS,
): { path: string; bytes: Uint8Array }[] {
  let entries = 0;
  let unpacked = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        entries += 1;
        if (entries > bounds.entries)
          throw new SheetImportError('zipTooManyEntries', { name, max: bounds.entries });
        if (!isImageName(file.name)) return false;
        unpacked += file.originalSize;
        if (unpacked > bounds.unpackedBytes)
          throw new SheetImportError('zipTooLarge', { name, max: bounds.unpackedBytes / MB });
        // Stored entries are their own size; a deflated one may not grow past the ratio.
        if (file.compression !== 0 && file.originalSize > bounds.ratio * Math.max(file.size, 1))
          throw new SheetImportError('zipBomb', { name, entry: file.name, ratio: bounds.ratio });
        return true;
      },
    });
  } catch (error) {
    if (error instanceof SheetImportError) throw error;
    throw new SheetImportError('zipUnreadable', { name });
  }
  return Object.entries(files)
    .filter(([path]) => !path.endsWith('/'))
    .map(([path, data]) => ({ path, bytes: data }));
}
