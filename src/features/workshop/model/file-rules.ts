// What the workshop accepts as images (spec §5's upload rule, shared/images/image-types.ts, and the
// server's per-item limit): JPEG, PNG, GIF or WebP, at most 10 MB each, at most 6 per item; text at
// most 5000 characters.
import { MAX_IMAGE_BYTES, isAcceptedImageType } from '../../../../shared/images/image-types';

export const MAX_FILE_BYTES = MAX_IMAGE_BYTES;
/** The size limit in MB, as the refusal names it. */
export const MAX_FILE_MB = MAX_IMAGE_BYTES / (1024 * 1024);
export const MAX_IMAGES = 6;
export const MAX_TEXT = 5000;

export type RejectReason = 'type' | 'size' | 'count';

export interface Rejected {
  name: string;
  reason: RejectReason;
}

export function acceptsType(type: string, name: string): boolean {
  if (isAcceptedImageType(type)) return true;
  // Some pickers give no type: judge by the name.
  return type === '' && /\.(jpe?g|png|gif|webp)$/i.test(name);
}

/** Splits incoming files into the ones that fit beside `existing` and the ones refused, with why. */
export function sortFiles<F extends { name: string; type: string; size: number }>(
  existing: number,
  incoming: readonly F[],
): { accepted: F[]; rejected: Rejected[] } {
  const accepted: F[] = [];
  const rejected: Rejected[] = [];
  for (const file of incoming) {
    if (!acceptsType(file.type, file.name)) rejected.push({ name: file.name, reason: 'type' });
    else if (file.size > MAX_FILE_BYTES) rejected.push({ name: file.name, reason: 'size' });
    else if (existing + accepted.length >= MAX_IMAGES) rejected.push({ name: file.name, reason: 'count' });
    else accepted.push(file);
  }
  return { accepted, rejected };
}
