// Which images belong to which row, by the row's fabric code, in the layouts teams use:
// - columns that name the files ("A12_front.jpg; A12_back.jpg"), matched by file name or path;
// - one folder per code (`A12/model_1.jpg`, `A12/pattern.jpg`);
// - flat names that start with the code (`A12_model_1.jpg`, `a12-pattern.JPG`, `A12 model 2.png`).
// Codes compare case-insensitively with `_`, `-` and spaces alike. A file name's word after the
// code says its role (model or pattern, in any of the five languages); a name without one is a
// pattern image (a swatch is what a fabric's folder mostly holds). Names in the columns win, then
// folders, then flat names; the rest are images that match no row.
import { IMAGE_ROLE_FIELD, type ImageRole, type Vocabulary } from './vocabulary';
import { normalizeWord } from './words';

/** An image as the import sees it: its path inside the picked folder or the archive, and its size. */
export interface ImageName {
  path: string;
  size: number;
}

export interface MatchedImage {
  /** Index into the image list. */
  image: number;
  role: ImageRole;
  /** How it was matched. */
  by: 'column' | 'folder' | 'name';
}

export interface RowImageRefs {
  /** Per row (same order as the rows given): its model images, then its pattern images, in name order. */
  rows: MatchedImage[][];
  /** Per row: the file names its image columns gave that name no image, with the column. */
  missingNames: { column: number; name: string }[][];
  /** Images that match no row. */
  unmatched: number[];
}

export interface MatchRow {
  code: string;
  /** The cells of image columns: the column, the role it gives and its text. */
  imageCells: { column: number; role: ImageRole; text: string }[];
}

const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp)$/i;
const HIDDEN = /(^|\/)(__MACOSX\/|\.)|(^|\/)(thumbs\.db|desktop\.ini)$/i;

/** True for a file the import looks at: an image name that is not a system file (`.DS_Store`, `__MACOSX/`). */
export function isImageName(path: string): boolean {
  return IMAGE_EXTENSION.test(path) && !HIDDEN.test(path);
}

/** A code or a name part as codes compare: lower case, full width folded, `_ - space` as one separator. */
export function codeKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/[\s_-]+/g, '-');
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const stem = (name: string) => name.replace(/\.[^.]*$/, '');

/** The role the words after the code give: a known role word among them, else pattern. */
function roleOf(vocabulary: Vocabulary, words: readonly string[]): ImageRole {
  for (const word of words) {
    const role = vocabulary.roles.get(normalizeWord(word.replace(/\d+$/, '')));
    if (role) return role;
  }
  // Two words read together ("nguoi mau", "foto model").
  for (let i = 0; i + 1 < words.length; i += 1) {
    const role = vocabulary.roles.get(normalizeWord(`${words[i]}${words[i + 1]}`));
    if (role) return role;
  }
  return 'pattern';
}

/** File names a cell lists, split on `;`, `,`, `|` and new lines. */
export function namesInCell(text: string): string[] {
  return text
    .split(/[;,|\n\r]+/)
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
}

export function matchImages(
  vocabulary: Vocabulary,
  rows: readonly MatchRow[],
  images: readonly ImageName[],
): RowImageRefs {
  const byCode = new Map<string, number>();
  rows.forEach((row, i) => {
    const key = codeKey(row.code);
    if (key && !byCode.has(key)) byCode.set(key, i);
  });
  const byPath = new Map<string, number>();
  const byName = new Map<string, number>();
  images.forEach((image, i) => {
    const path = image.path.replace(/\\/g, '/').toLowerCase();
    byPath.set(path, i);
    const name = baseName(path);
    if (!byName.has(name)) byName.set(name, i);
  });

  const result: RowImageRefs = {
    rows: rows.map(() => []),
    missingNames: rows.map(() => []),
    unmatched: [],
  };
  const claimed = new Set<number>();

  // 1. Columns that name the files.
  rows.forEach((row, r) => {
    for (const cell of row.imageCells) {
      for (const name of namesInCell(cell.text)) {
        const wanted = name.replace(/\\/g, '/').toLowerCase();
        const found = byPath.get(wanted) ?? byName.get(baseName(wanted));
        if (found === undefined) result.missingNames[r]!.push({ column: cell.column, name });
        else if (!claimed.has(found)) {
          claimed.add(found);
          result.rows[r]!.push({ image: found, role: cell.role, by: 'column' });
        }
      }
    }
  });

  // 2. A folder named after a code, then 3. a name that starts with one.
  images.forEach((image, i) => {
    if (claimed.has(i)) return;
    const parts = image.path.replace(/\\/g, '/').split('/');
    const fileWords = stem(parts[parts.length - 1] ?? '')
      .split(/[\s_-]+/)
      .filter(Boolean);
    for (let d = parts.length - 2; d >= 0; d -= 1) {
      const row = byCode.get(codeKey(parts[d]!));
      if (row !== undefined) {
        claimed.add(i);
        result.rows[row]!.push({ image: i, role: roleOf(vocabulary, fileWords), by: 'folder' });
        return;
      }
    }
    // The longest run of leading words that is a code: codes may hold separators themselves.
    for (let n = fileWords.length; n >= 1; n -= 1) {
      const row = byCode.get(codeKey(fileWords.slice(0, n).join('-')));
      if (row !== undefined) {
        claimed.add(i);
        result.rows[row]!.push({ image: i, role: roleOf(vocabulary, fileWords.slice(n)), by: 'name' });
        return;
      }
    }
    result.unmatched.push(i);
  });

  // Model images first, then pattern images, each in name order (`model_2` before `model_10`).
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  for (const list of result.rows) {
    list.sort(
      (a, b) =>
        (a.role === b.role ? 0 : a.role === 'model' ? -1 : 1) ||
        collator.compare(images[a.image]!.path, images[b.image]!.path),
    );
  }
  return result;
}

export { IMAGE_ROLE_FIELD };
