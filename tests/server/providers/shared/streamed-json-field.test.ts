// Reading the leading string field of a JSON object while the JSON arrives in arbitrary pieces.
import { describe, expect, it } from 'vitest';
import { StreamedJsonField } from '../../../../server/providers/shared/streamed-json-field.js';

function feed(json: string, size: number): { pieces: string[]; field: StreamedJsonField } {
  const field = new StreamedJsonField('analysis');
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += size) {
    const fresh = field.push(json.slice(i, i + size));
    if (fresh) pieces.push(fresh);
  }
  return { pieces, field };
}

describe('StreamedJsonField', () => {
  const prose = 'Line one,\n"quoted" \\ back\tslash, café 🌸 and \u2028 end.';
  const json = `  {\n  "analysis" : ${JSON.stringify(prose).replace('é', '\\u00e9').replace('🌸', '\\ud83c\\udf38')}, "summary": "not streamed"}`;

  it('decodes escapes cut anywhere, surrogate pairs included, at every piece size', () => {
    for (const size of [1, 2, 3, 5, 7, 13, json.length]) {
      const { pieces, field } = feed(json, size);
      expect(pieces.join('')).toBe(prose);
      expect(field.streamedLength).toBe(prose.length);
      expect(field.json).toBe(json);
      // Never half a character: every piece is valid UTF-16 on its own.
      for (const piece of pieces) expect(piece.isWellFormed()).toBe(true);
    }
  });

  it('streams nothing when another field comes first', () => {
    const { pieces } = feed(JSON.stringify({ summary: 's', analysis: 'late' }), 4);
    expect(pieces).toEqual([]);
  });

  it('stops at the closing quote and ignores what follows', () => {
    const field = new StreamedJsonField('analysis');
    expect(field.push('{"analysis":"ab')).toBe('ab');
    expect(field.push('c", "analysis2": "x')).toBe('c');
    expect(field.push('yz"}')).toBe('');
    expect(field.streamedLength).toBe(3);
  });
});
