// Spec §5/§9's image upload rule, for every upload either side checks: JPEG, PNG, GIF or WebP, at
// most 10 MB each. The type is read from the file's first bytes, never from its name or the
// sender's word, so a renamed file cannot slip in: the PWA checks before it sends, the server again
// before any decoder sees the bytes (a Node Buffer is a Uint8Array).

/** The accepted formats, as the server's decoders name them. */
export const IMAGE_FORMATS = ['jpeg', 'png', 'gif', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The accepted formats as MIME types, in the same order. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/** The accepted types as a file input's accept attribute lists them. */
export const IMAGE_ACCEPT = ACCEPTED_IMAGE_TYPES.join(',');

/** Largest image accepted, in bytes (spec §9: 10MB each). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export function isAcceptedImageType(type: string): type is AcceptedImageType {
  return (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(type);
}

const startsWith = (bytes: Uint8Array, expected: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + expected.length && expected.every((b, i) => bytes[offset + i] === b);

/** The format of an image from its first (at least 12) bytes; undefined when it is none of the four. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // GIF87a or GIF89a
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'gif';
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return undefined;
}

/** The MIME type of an image from its first bytes, or null. */
export function sniffImageType(bytes: Uint8Array): AcceptedImageType | null {
  const format = sniffImageFormat(bytes);
  return format ? `image/${format}` : null;
}
