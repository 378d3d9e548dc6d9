// The analysis is asked for as one JSON object whose first field is the prose; while the JSON
// arrives piece by piece, this reads the characters of that first string field as far as they
// have come, so the designer sees the prose stream although the answer is structured. Only the
// leading field can be streamed this way; when a model puts another field first, nothing is
// streamed here and the adapter hands over the whole prose once the JSON is complete.

import type { PromptDraftPiece, VideoPromptDraft } from '../capabilities.js';

export class StreamedJsonField {
  private raw = '';
  /** Decoded so far, and where in `raw` decoding resumes (-1: the field has not opened yet). */
  private value = '';
  private position = -1;
  private emitted = 0;
  private closed = false;
  private readonly opening: RegExp;

  constructor(field: string) {
    this.opening = new RegExp(`^\\s*\\{\\s*"${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:\\s*"`);
  }

  /** Adds the next piece of JSON text; returns the newly readable characters of the field (maybe ''). */
  push(chunk: string): string {
    this.raw += chunk;
    if (this.closed) return '';
    if (this.position < 0) {
      const match = this.opening.exec(this.raw);
      if (!match) return '';
      this.position = match[0].length;
    }
    const decoded = decodeOpenString(this.raw, this.position);
    this.value += decoded.value;
    this.position = decoded.next;
    this.closed = decoded.complete;
    if (this.value.length <= this.emitted) return '';
    const fresh = this.value.slice(this.emitted);
    this.emitted = this.value.length;
    return fresh;
  }

  /** Characters of the field handed out so far. */
  get streamedLength(): number {
    return this.emitted;
  }

  /** All the JSON text pushed so far. */
  get json(): string {
    return this.raw;
  }
}

/**
 * The leading string field of a streamed JSON answer, handed to onText as the JSON arrives: push
 * each piece of JSON; restart when the adapter asks again (the reader is told to drop what it was
 * shown); finish with the field's whole value, so what the stream could not show (another field
 * came first, an escape the reader stopped at) is handed over and the reader holds exactly it.
 */
export class StreamedFieldText {
  private reader: StreamedJsonField;

  constructor(
    private readonly field: string,
    private readonly onText: (chunk: string) => void,
    private readonly onRestart?: () => void,
  ) {
    this.reader = new StreamedJsonField(field);
  }

  push(json: string): void {
    const fresh = this.reader.push(json);
    if (fresh) this.onText(fresh);
  }

  restart(): void {
    this.reader = new StreamedJsonField(this.field);
    this.onRestart?.();
  }

  finish(value: string): void {
    const rest = value.slice(this.reader.streamedLength);
    if (rest) this.onText(rest);
  }
}

/**
 * Every string value of a named field wherever it occurs (the `prompt` of each video prompt), read
 * as the JSON arrives: push answers the newly readable characters of each, by its position among
 * the occurrences. Decoding starts over on each piece, which is fine for answers of a few kB.
 */
export class StreamedJsonStrings {
  private raw = '';
  private readonly emitted: number[] = [];
  private readonly key: RegExp;

  constructor(field: string) {
    this.key = new RegExp(`"${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:\\s*"`, 'g');
  }

  push(chunk: string): { index: number; fresh: string; offset: number }[] {
    this.raw += chunk;
    const out: { index: number; fresh: string; offset: number }[] = [];
    let index = 0;
    for (const match of this.raw.matchAll(this.key)) {
      const { value } = decodeOpenString(this.raw, match.index + match[0].length);
      const before = this.emitted[index] ?? 0;
      if (value.length > before) {
        out.push({ index, fresh: value.slice(before), offset: before });
        this.emitted[index] = value.length;
      }
      index += 1;
    }
    return out;
  }
}

/** One call of a JSON answer of video prompts, as a whole or streamed (the adapter's own wire). */
export interface VideoPromptCall {
  whole(): Promise<{ value: VideoPromptDraft[]; model: string }>;
  streamed(onText: (chunk: string) => void, onRestart: () => void): Promise<{ value: VideoPromptDraft[]; model: string }>;
}

/**
 * PromptWriter.writeVideoPrompts over an adapter's call: without onDraft the answer is asked for
 * whole; with it the answer is streamed and each option's prompt text handed to onDraft as it is
 * written, the drafts starting afresh (and onRestart told) when the adapter asks again.
 */
export async function writeVideoPromptsBy(
  call: VideoPromptCall,
  onDraft?: (piece: PromptDraftPiece) => void,
  onRestart?: () => void,
): Promise<{ prompts: VideoPromptDraft[]; model: string }> {
  if (!onDraft) {
    const { value, model } = await call.whole();
    return { prompts: value, model };
  }
  let drafts = new StreamedJsonStrings('prompt');
  const { value, model } = await call.streamed(
    (chunk) => drafts.push(chunk).forEach((d) => onDraft({ index: d.index, content: d.fresh, offset: d.offset })),
    () => {
      drafts = new StreamedJsonStrings('prompt');
      onRestart?.();
    },
  );
  return { prompts: value, model };
}

/**
 * Decodes a JSON string body from `start` (at or after its opening quote) up to its closing quote
 * or, for a string still arriving, up to the last complete character (an escape cut in half, or a
 * lone high surrogate, waits for the next piece); `next` is where to resume.
 */
export function decodeOpenString(raw: string, start: number): { value: string; next: number; complete: boolean } {
  let value = '';
  let i = start;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch === '"') return { value, next: i, complete: true };
    if (ch !== '\\') {
      value += ch;
      i += 1;
      continue;
    }
    const kind = raw[i + 1];
    if (kind === undefined) break;
    if (kind === 'u') {
      const hex = raw.slice(i + 2, i + 6);
      if (hex.length < 4) break;
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return { value, next: i, complete: true };
      const code = Number.parseInt(hex, 16);
      // A high surrogate is only shown together with its low half.
      if (code >= 0xd800 && code <= 0xdbff) {
        const next = raw.slice(i + 6, i + 12);
        if (next.length < 6) break;
        const low = /^\\u([0-9a-fA-F]{4})$/.exec(next);
        if (low) {
          value += String.fromCharCode(code, Number.parseInt(low[1]!, 16));
          i += 12;
          continue;
        }
      }
      value += String.fromCharCode(code);
      i += 6;
      continue;
    }
    const simple = SIMPLE_ESCAPES[kind];
    // An escape JSON does not have: the string is malformed; the full parse reports it.
    if (simple === undefined) return { value, next: i, complete: true };
    value += simple;
    i += 2;
  }
  return { value, next: i, complete: false };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
