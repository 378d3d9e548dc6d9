// Spec §5 upload rules: JPEG, PNG, GIF or WebP, at most 10 MB each. The type is read from the
// file's first bytes, not from its name or the browser's guess, so a renamed file cannot slip in.

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export type ImageKind = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export type RejectReason = 'unsupported-type' | 'too-large' | 'empty' | 'unreadable';

export type Verdict = { ok: true; type: ImageKind } | { ok: false; reason: RejectReason };

/** The image type of the first (at least 12) bytes, or null. */
export function sniffImageType(bytes: Uint8Array): ImageKind | null {
  const at = (i: number) => bytes[i] ?? -1;
  const ascii = (from: number, text: string) => [...text].every((c, i) => at(from + i) === c.charCodeAt(0));
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) return 'image/png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return null;
}

export async function validateUpload(file: Blob): Promise<Verdict> {
  if (file.size === 0) return { ok: false, reason: 'empty' };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, reason: 'too-large' };
  let head: Uint8Array;
  try {
    head = new Uint8Array(await readHead(file.slice(0, 16)));
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const type = sniffImageType(head);
  return type ? { ok: true, type } : { ok: false, reason: 'unsupported-type' };
}

// jsdom's Blob lacks arrayBuffer() in some versions; FileReader works everywhere.
function readHead(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}
