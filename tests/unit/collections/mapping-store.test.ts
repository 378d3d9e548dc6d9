import { describe, expect, it } from 'vitest';
import {
  readColumnMapping,
  wipeAllColumnMappings,
  writeColumnMapping,
} from '../../../src/lib/db/collection-mapping-store';
import { headerSignature } from '../../../src/lib/collections/column-mapping';

describe('remembered column mappings', () => {
  it('keeps a mapping per user and header signature, and forgets them all on wipe', async () => {
    const signature = headerSignature(['Ref', 'Stoff']);
    await writeColumnMapping('u1', signature, ['code', 'fabric_name']);
    await writeColumnMapping('u2', signature, ['code', null]);
    expect((await readColumnMapping('u1', signature))?.fields).toEqual(['code', 'fabric_name']);
    expect((await readColumnMapping('u2', signature))?.fields).toEqual(['code', null]);
    expect(await readColumnMapping('u1', headerSignature(['Other']))).toBeUndefined();
    await writeColumnMapping('u1', signature, [null, 'code']);
    expect((await readColumnMapping('u1', signature))?.fields).toEqual([null, 'code']);
    await wipeAllColumnMappings();
    expect(await readColumnMapping('u1', signature)).toBeUndefined();
  });
});
