// A word-level difference between the original and the enhanced text for the side-by-side view:
// the longest common subsequence of tokens (words, spaces and punctuation; each CJK character its
// own token), marking what was removed from the left and added on the right.
export type DiffPart = { kind: 'same' | 'removed' | 'added'; text: string };

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]|[\p{L}\p{N}_'’-]+|\s+|./gsu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Past this many token pairs the table is skipped: the whole texts are shown as changed. */
const MAX_CELLS = 4_000_000;

export function diffTexts(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  if (a.length * b.length > MAX_CELLS) {
    return merge([
      ...(before ? [{ kind: 'removed' as const, text: before }] : []),
      ...(after ? [{ kind: 'added' as const, text: after }] : []),
    ]);
  }
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      table[i * cols + j] =
        a[i] === b[j] ? table[(i + 1) * cols + j + 1]! + 1 : Math.max(table[(i + 1) * cols + j]!, table[i * cols + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i]! });
      i += 1;
      j += 1;
    } else if (table[(i + 1) * cols + j]! >= table[i * cols + j + 1]!) {
      parts.push({ kind: 'removed', text: a[i]! });
      i += 1;
    } else {
      parts.push({ kind: 'added', text: b[j]! });
      j += 1;
    }
  }
  while (i < a.length) parts.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) parts.push({ kind: 'added', text: b[j++]! });
  return merge(parts);
}

function merge(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last && last.kind === part.kind) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

/** The left side (original: same + removed) and the right side (enhanced: same + added). */
export function sides(parts: readonly DiffPart[]): { left: DiffPart[]; right: DiffPart[] } {
  return { left: parts.filter((p) => p.kind !== 'added'), right: parts.filter((p) => p.kind !== 'removed') };
}

/** How much changed, 0..1, by characters. */
export function changedShare(parts: readonly DiffPart[]): number {
  const total = parts.reduce((n, p) => n + (p.kind === 'added' ? 0 : p.text.length), 0);
  const removed = parts.reduce((n, p) => n + (p.kind === 'removed' ? p.text.length : 0), 0);
  return total === 0 ? (parts.some((p) => p.kind === 'added') ? 1 : 0) : removed / total;
}
