// Builds the batch ZIP with fflate's streaming Zip: images are stored as they are (PNG/JPEG/WebP
// are compressed already, deflating them again costs time for nothing), manifest.csv is deflated.
// Runs in zip.worker.ts and, unchanged, in the Node benchmark; so it uses only Blob, AbortSignal
// and fflate, and its relative imports carry the .js suffix Node's resolver needs.
import { Zip, ZipDeflate, ZipPassThrough, strToU8, type ZipInputFile } from 'fflate';
import { manifestCsv } from './manifest-csv.js';
import { MANIFEST_NAME, zipEntryNames } from './zip-naming.js';

export interface ZipResultItem {
  sourceName: string;
  blob: Blob;
  modelName: string;
  scale: number;
  width: number;
  height: number;
  durationMs: number;
}

export interface ZipProgress {
  processedBytes: number;
  totalBytes: number;
  entriesDone: number;
  entriesTotal: number;
}

export interface BuildZipOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ZipProgress) => void;
  /** Bytes read from a Blob at a time; smaller means finer progress and faster cancel. */
  chunkBytes?: number;
  /** Entry timestamps; fixed in tests so two builds are byte-identical. */
  mtime?: Date;
}

const DEFAULT_CHUNK_BYTES = 512 * 1024;

/** Pushes a Blob into a ZIP entry slice by slice, checking for cancellation between slices. */
async function pushBlob(
  entry: ZipInputFile & { push(chunk: Uint8Array, final?: boolean): void },
  blob: Blob,
  chunkBytes: number,
  signal: AbortSignal | undefined,
  advance: (bytes: number) => void,
): Promise<void> {
  if (blob.size === 0) {
    entry.push(new Uint8Array(0), true);
    return;
  }
  for (let offset = 0; offset < blob.size; offset += chunkBytes) {
    signal?.throwIfAborted();
    const end = Math.min(blob.size, offset + chunkBytes);
    const bytes = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    signal?.throwIfAborted();
    entry.push(bytes, end === blob.size);
    advance(end - offset);
  }
}

export async function buildResultsZip(
  items: readonly ZipResultItem[],
  options: BuildZipOptions = {},
): Promise<Blob> {
  const { signal, onProgress, chunkBytes = DEFAULT_CHUNK_BYTES, mtime } = options;
  signal?.throwIfAborted();

  const names = zipEntryNames(items.map((item) => ({ ...item, mimeType: item.blob.type })));
  const csv = strToU8(
    manifestCsv(
      items.map((item, index) => ({
        sourceName: item.sourceName,
        outputName: names[index] ?? '',
        modelName: item.modelName,
        scale: item.scale,
        width: item.width,
        height: item.height,
        sizeBytes: item.blob.size,
        durationMs: item.durationMs,
      })),
    ),
  );

  const chunks: Uint8Array[] = [];
  let failure: unknown = null;
  let finished = false;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure ??= error;
    else chunks.push(chunk);
    if (final) finished = true;
  });

  const progress: ZipProgress = {
    processedBytes: 0,
    totalBytes: items.reduce((sum, item) => sum + item.blob.size, 0) + csv.length,
    entriesDone: 0,
    entriesTotal: items.length + 1,
  };
  const advance = (bytes: number) => {
    progress.processedBytes += bytes;
    onProgress?.({ ...progress });
  };
  const check = () => {
    if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  };

  try {
    for (const [index, item] of items.entries()) {
      const entry = new ZipPassThrough(names[index] ?? `image_${index + 1}`);
      if (mtime) entry.mtime = mtime;
      zip.add(entry);
      await pushBlob(entry, item.blob, chunkBytes, signal, advance);
      check();
      progress.entriesDone += 1;
      onProgress?.({ ...progress });
    }
    signal?.throwIfAborted();
    const manifest = new ZipDeflate(MANIFEST_NAME, { level: 6 });
    if (mtime) manifest.mtime = mtime;
    zip.add(manifest);
    manifest.push(csv, true);
    progress.entriesDone += 1;
    advance(csv.length);
    zip.end();
    check();
  } catch (error) {
    zip.terminate();
    throw error;
  }
  // The synchronous Zip has emitted everything by the time end() returns.
  if (!finished) throw new Error('ZIP stream did not finish');
  // fflate's chunks are fresh Uint8Arrays over plain ArrayBuffers, never shared memory.
  return new Blob(chunks as Uint8Array<ArrayBuffer>[], { type: 'application/zip' });
}
