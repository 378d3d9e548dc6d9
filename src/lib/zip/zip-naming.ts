// Names of the upscaled files inside the batch ZIP: the original's name plus model and scale,
// safe on Windows, macOS and Linux, and never two entries with the same name. No imports, so
// the worker, the page and the Node benchmark share it as is.

export interface ZipNameInput {
  /** The file name the user uploaded, e.g. "布料 01.jpg". */
  sourceName: string;
  /** Model name as sent to the service, e.g. "up2x-denoise2x". */
  modelName: string;
  scale: number;
  /** MIME type of the upscaled output; decides the extension when known. */
  mimeType?: string;
}

/** Reserved for the manifest so no image can take its name. */
export const MANIFEST_NAME = 'manifest.csv';

const MAX_STEM_CHARS = 100;

const EXTENSION_BY_TYPE: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'image/avif': '.avif',
};

// Windows refuses these as file names whatever the extension.
const RESERVED_STEMS = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** Removes what breaks a ZIP entry on some system: separators, control and reserved characters. */
export function sanitizeSegment(value: string): string {
  const cleaned = value
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    // Trailing dots and spaces vanish on Windows, which would merge names.
    .replace(/[. ]+$/, '');
  return cleaned;
}

/** Cuts by code points so a surrogate pair (emoji, rare CJK) is never split. */
function truncate(value: string, max: number): string {
  const chars = Array.from(value);
  return chars.length <= max ? value : chars.slice(0, max).join('');
}

function splitName(name: string): { stem: string; ext: string } {
  const base = name.split(/[/\\]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return { stem: base, ext: '' };
  return { stem: base.slice(0, dot), ext: base.slice(dot).toLowerCase() };
}

/** The preferred name before collisions are resolved. */
export function baseZipName(input: ZipNameInput): string {
  const { stem: rawStem, ext: sourceExt } = splitName(input.sourceName);
  const ext = (input.mimeType && EXTENSION_BY_TYPE[input.mimeType.toLowerCase()]) || sourceExt || '.png';
  let stem = truncate(sanitizeSegment(rawStem), MAX_STEM_CHARS) || 'image';
  if (RESERVED_STEMS.test(stem)) stem = `${stem}_`;
  const model = sanitizeSegment(input.modelName) || 'model';
  // Real-CUGAN names already carry the scale ("up2x-..."); others get it appended.
  const scaleTag = model.toLowerCase().includes(`up${input.scale}x`) ? '' : `_${input.scale}x`;
  return `${stem}_${model}${scaleTag}${ext}`;
}

/**
 * One unique name per input, in input order. Uniqueness is case-insensitive because Windows and
 * macOS unpack "A.png" and "a.png" onto the same file; later duplicates get "_2", "_3", ...
 */
export function zipEntryNames(inputs: readonly ZipNameInput[]): string[] {
  const taken = new Set<string>([MANIFEST_NAME]);
  return inputs.map((input) => {
    const preferred = baseZipName(input);
    let name = preferred;
    const { stem, ext } = splitName(preferred);
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${stem}_${n}${ext}`;
    taken.add(name.toLowerCase());
    return name;
  });
}
