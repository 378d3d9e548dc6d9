import { createHash } from 'node:crypto';

/** A file's id: the sha256 of its bytes, hex. */
export function contentHash(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export const CONTENT_HASH = /^[0-9a-f]{64}$/;
