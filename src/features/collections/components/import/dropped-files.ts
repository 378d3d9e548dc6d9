// What a drop onto the import holds: a sheet, a ZIP, a folder of images (walked through the
// entries API, each file with its path inside the folder, which a dropped File does not carry), or
// loose images. A picked folder's Files keep their paths in webkitRelativePath.
import type { ImageSource } from '../../../../workers/sheet-import/protocol';

const SHEET = /\.(csv|xlsx|xls|txt|tsv)$/i;
const ZIP = /\.zip$/i;

export interface Dropped {
  sheet: File | null;
  images: ImageSource | null;
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  // readEntries answers in batches (100 in Chromium) until an empty one.
  return new Promise((resolve, reject) => {
    const all: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, into: { files: File[]; paths: string[] }): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    into.files.push(file);
    into.paths.push(entry.fullPath.replace(/^\/+/, ''));
    return;
  }
  if (entry.isDirectory)
    for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child, into);
}

/** Sorts the dropped things: the first sheet, then a ZIP or the folders and images together. */
export async function readDrop(transfer: DataTransfer): Promise<Dropped> {
  const entries = [...transfer.items].flatMap((item) => {
    const entry = item.kind === 'file' ? item.webkitGetAsEntry?.() : null;
    return entry ? [entry] : [];
  });
  const files = entries.length === 0 ? [...transfer.files] : [];
  const folder = { files: [] as File[], paths: [] as string[] };
  const found: { sheet: File | null; zip: File | null } = { sheet: null, zip: null };
  const sort = (file: File, path: string) => {
    if (!found.sheet && SHEET.test(file.name)) found.sheet = file;
    else if (!found.zip && ZIP.test(file.name)) found.zip = file;
    else {
      folder.files.push(file);
      folder.paths.push(path);
    }
  };
  for (const file of files) sort(file, file.name);
  for (const entry of entries) {
    if (entry.isDirectory) await walk(entry, folder);
    else {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      sort(file, file.name);
    }
  }
  const images: ImageSource | null = found.zip
    ? { kind: 'zip', file: found.zip }
    : folder.files.length > 0
      ? { kind: 'folder', files: folder.files, paths: folder.paths }
      : null;
  return { sheet: found.sheet, images };
}
