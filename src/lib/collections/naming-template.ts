// The names of a collection's files in its lookbook ZIP, from a template the person writes with
// the tokens {code} {name} {stage} {index} {date}. Names must unpack on Windows, macOS and Linux:
// characters those refuse are replaced, CJK, Thai and Vietnamese letters stay as they are (NFC, so
// a Vietnamese vowel is one character, not a letter and two marks), and a name stays within what
// every file system takes (255 bytes; cut between graphemes, never inside a Thai cluster). Two rows
// whose names would be one file are found and named, so the export can wait until the template
// tells them apart. Pure: the page's preview, the export and the unit tests run it as is.

export const NAMING_TOKENS = ['code', 'name', 'stage', 'index', 'date'] as const;
export type NamingToken = (typeof NAMING_TOKENS)[number];

export const DEFAULT_NAMING_TEMPLATE = '{code}_{name}_{stage}';

/** Bytes (UTF-8) of a whole name with its extension: under ext4's and APFS's 255, with room for a folder's prefix. */
export const MAX_NAME_BYTES = 180;

/** The stage a file comes from: the chosen image (pick) or the video. */
export type NamedStage = 'pick' | 'video';

export interface NamingFile {
  /** The row's position in the collection, 1-based (the {index} token). */
  row: number;
  code: string;
  name: string | null;
  stage: NamedStage;
  /** With its dot, e.g. ".png"; lower-cased into the name. */
  extension: string;
}

export interface NamingOptions {
  /** The {date} token, e.g. "2026-11-27". */
  date: string;
  /** Rows in the collection: {index} is zero-padded to its width, so names sort in row order. */
  total: number;
}

/** Rows whose files would have one name (compared as Windows and macOS do: case-insensitively). */
export interface NameCollision {
  name: string;
  rows: number[];
  codes: string[];
}

export interface NamingPlan {
  /** One name per file, in the files' order. */
  names: string[];
  collisions: NameCollision[];
  /** `{...}` words that are not tokens, as written. */
  unknownTokens: string[];
  /** Rows whose name came out empty (a template of only {name} on rows without a name). */
  emptyRows: number[];
}

const TOKEN = /\{([^{}]*)\}/g;

// Windows refuses these (and control characters) anywhere in a name; / is every system's separator.
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const REFUSED = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;
// Direction overrides and invisible marks can make "gpj.exe" read as "exe.jpg"; none belongs in a file name.
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// Names Windows keeps for devices, whatever follows the first dot.
const RESERVED_STEM = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
const EDGE_SEPARATORS = /^[\s._-]+|[\s._-]+$/g;

const encoder = new TextEncoder();
const byteLength = (value: string) => encoder.encode(value).length;

/** The `{...}` words of a template that are not tokens, each once. */
export function unknownTokens(template: string): string[] {
  const found = new Set<string>();
  for (const match of template.matchAll(TOKEN)) {
    const word = match[1] ?? '';
    if (!(NAMING_TOKENS as readonly string[]).includes(word)) found.add(match[0]);
  }
  return [...found];
}

/** A name's text made safe on every file system: refused characters become "_", spaces collapse. */
export function sanitizeFileName(value: string): string {
  return (
    value
      .normalize('NFC')
      .replace(INVISIBLE, '')
      // Tabs and line breaks are spaces to the reader; the other control characters go as "_".
      .replace(/\s+/g, ' ')
      .replace(REFUSED, '_')
      // An empty token leaves its separators doubled ("A12__video"): one is enough.
      .replace(/([_.-])\1+/g, '$1')
      // A leading dot hides the file on macOS and Linux; trailing dots and spaces vanish on Windows.
      .replace(EDGE_SEPARATORS, '')
  );
}

function graphemes(value: string): string[] {
  if (typeof Intl !== 'undefined' && 'Segmenter' in Intl) {
    return Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(value), (s) => s.segment);
  }
  return Array.from(value);
}

/** Cuts `stem` between graphemes so that stem + extension fit in `maxBytes` of UTF-8. */
export function boundStem(stem: string, extension: string, maxBytes = MAX_NAME_BYTES): string {
  const room = maxBytes - byteLength(extension);
  if (byteLength(stem) <= room) return stem;
  let kept = '';
  let bytes = 0;
  for (const cluster of graphemes(stem)) {
    const size = byteLength(cluster);
    if (bytes + size > room) break;
    kept += cluster;
    bytes += size;
  }
  return kept.replace(EDGE_SEPARATORS, '');
}

function tokenValue(token: NamingToken, file: NamingFile, options: NamingOptions): string {
  switch (token) {
    case 'code':
      return file.code;
    case 'name':
      return file.name ?? '';
    case 'stage':
      return file.stage;
    case 'index':
      return String(file.row).padStart(String(Math.max(options.total, file.row)).length, '0');
    case 'date':
      return options.date;
  }
}

function cleanExtension(extension: string): string {
  const bare = extension.replace(/^\.+/, '').toLowerCase().replace(/[^a-z0-9]/g, '');
  return bare ? `.${bare}` : '';
}

/** One file's name from the template; "" when nothing of it is left. */
export function fileNameFor(template: string, file: NamingFile, options: NamingOptions): string {
  const text = template.replace(TOKEN, (whole, word: string) =>
    (NAMING_TOKENS as readonly string[]).includes(word) ? tokenValue(word as NamingToken, file, options) : whole,
  );
  const extension = cleanExtension(file.extension);
  let stem = boundStem(sanitizeFileName(text), extension);
  if (!stem) return '';
  if (RESERVED_STEM.test(stem.split('.')[0] ?? '')) stem = `${stem}_`;
  return `${stem}${extension}`;
}

/** The key two names share when one file system would store them as one file. */
export function collisionKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Every file's name, and what keeps them from being exported: collisions, unknown tokens, empty names. */
export function planNames(template: string, files: readonly NamingFile[], options: NamingOptions): NamingPlan {
  const names = files.map((file) => fileNameFor(template, file, options));
  const byKey = new Map<string, number[]>();
  const emptyRows = new Set<number>();
  names.forEach((name, index) => {
    if (!name) {
      emptyRows.add(files[index]!.row);
      return;
    }
    const key = collisionKey(name);
    const list = byKey.get(key);
    if (list) list.push(index);
    else byKey.set(key, [index]);
  });
  const collisions: NameCollision[] = [];
  for (const indexes of byKey.values()) {
    if (indexes.length < 2) continue;
    const rows: number[] = [];
    const codes: string[] = [];
    for (const index of indexes) {
      const file = files[index]!;
      if (rows.includes(file.row)) continue;
      rows.push(file.row);
      codes.push(file.code);
    }
    collisions.push({ name: names[indexes[0]!]!, rows, codes });
  }
  return { names, collisions, unknownTokens: unknownTokens(template), emptyRows: [...emptyRows].sort((a, b) => a - b) };
}

/** Whether the plan may be exported as it is. */
export function planIsClear(plan: NamingPlan): boolean {
  return plan.collisions.length === 0 && plan.unknownTokens.length === 0 && plan.emptyRows.length === 0;
}
