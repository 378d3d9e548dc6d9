import { describe, expect, it } from 'vitest';
import { readDrop } from '../../../src/features/collections/components/import/dropped-files';

// The entries API as Chromium gives it for a drop: files and folders, a folder read in batches.
function fileEntry(fullPath: string): FileSystemFileEntry {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (resolve: (file: File) => void) => resolve(new File(['x'], name)),
  } as unknown as FileSystemFileEntry;
}

function folderEntry(fullPath: string, children: FileSystemEntry[], batch = 2): FileSystemDirectoryEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.slice(fullPath.lastIndexOf('/') + 1),
    fullPath,
    createReader: () => {
      let at = 0;
      return {
        // Answers later, as the browser does.
        readEntries: (resolve: (entries: FileSystemEntry[]) => void) => {
          const next = children.slice(at, at + batch);
          at += batch;
          setTimeout(() => resolve(next), 0);
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

function transfer(entries: FileSystemEntry[]): DataTransfer {
  return {
    items: entries.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry })),
    files: [],
  } as unknown as DataTransfer;
}

describe('a drop on the import', () => {
  it('finds the sheet and walks a folder, every file with its path inside it', async () => {
    const swatches = folderEntry('/swatches', [
      fileEntry('/swatches/A1_pattern.jpg'),
      folderEntry('/swatches/B2', [fileEntry('/swatches/B2/model_1.jpg'), fileEntry('/swatches/B2/model_2.jpg'), fileEntry('/swatches/B2/pattern.jpg')]),
      fileEntry('/swatches/C3.png'),
    ]);
    const dropped = await readDrop(transfer([fileEntry('/fabrics.xlsx'), swatches]));
    expect(dropped.sheet?.name).toBe('fabrics.xlsx');
    expect(dropped.images?.kind).toBe('folder');
    if (dropped.images?.kind !== 'folder') return;
    expect(dropped.images.paths).toEqual([
      'swatches/A1_pattern.jpg',
      'swatches/B2/model_1.jpg',
      'swatches/B2/model_2.jpg',
      'swatches/B2/pattern.jpg',
      'swatches/C3.png',
    ]);
    expect(dropped.images.files.map((f) => f.name)).toEqual(['A1_pattern.jpg', 'model_1.jpg', 'model_2.jpg', 'pattern.jpg', 'C3.png']);
  });

  it('takes a ZIP as the images, and loose images as a folder of their own', async () => {
    const zip = await readDrop(transfer([fileEntry('/images.zip'), fileEntry('/sheet.csv')]));
    expect(zip.sheet?.name).toBe('sheet.csv');
    expect(zip.images).toMatchObject({ kind: 'zip', file: { name: 'images.zip' } });
    const loose = await readDrop(transfer([fileEntry('/A1_model.jpg'), fileEntry('/A1_pattern.jpg')]));
    expect(loose.sheet).toBeNull();
    expect(loose.images).toMatchObject({ kind: 'folder', paths: ['A1_model.jpg', 'A1_pattern.jpg'] });
  });

  it('holds nothing for a drop of text', async () => {
    const empty = await readDrop({ items: [{ kind: 'string', webkitGetAsEntry: () => null }], files: [] } as unknown as DataTransfer);
    expect(empty).toEqual({ sheet: null, images: null });
  });
});
