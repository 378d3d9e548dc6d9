// The PWA's API types are generated from the server's OpenAPI document and committed: a server
// answer whose schema changed without them being generated again would compile on both sides and
// break at run time, so this suite generates them again and compares.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, renderApiTypes } from '../../scripts/api-types.js';

const root = path.resolve(__dirname, '../..');

/** The first line where two texts part, for a failure that says where to look. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end of file)')}, generated ${JSON.stringify(b[at] ?? '(end of file)')}`;
}

describe('generated API types', () => {
  it(`${API_TYPES_FILE} is what the server's OpenAPI document generates`, async () => {
    const committed = readFileSync(path.join(root, API_TYPES_FILE), 'utf8');
    const generated = await renderApiTypes();
    if (committed !== generated) {
      expect.fail(
        `${API_TYPES_FILE} is out of date with the server's schemas: run npm run api:types and commit the result ` +
          `(${firstDifference(committed, generated)})`,
      );
    }
  });
});
