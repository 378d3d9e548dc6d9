// Spec §5 upload rules (shared/images/image-types.ts): JPEG, PNG, GIF or WebP, at most 10 MB each.
// The type is read from the file's first bytes, not from its name or the browser's guess.
import { MAX_IMAGE_BYTES, sniffImageType, type AcceptedImageType } from '../../../../shared/images/image-types';

export { sniffImageType };

export const MAX_UPLOAD_BYTES = MAX_IMAGE_BYTES;

export type ImageKind = AcceptedImageType;

export type RejectReason = 'unsupported-type' | 'too-large' | 'empty' | 'unreadable';

export type Verdict = { ok: true; type: ImageKind } | { ok: false; reason: RejectReason };

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
