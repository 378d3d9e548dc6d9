// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { collectionVocabulary } from '../../../src/lib/collections/collection-vocabulary';
import {
  isImageName,
  matchImages,
  type ImageName,
  type MatchRow,
} from '../../../src/lib/collections/image-match';

const vocabulary = collectionVocabulary();
const images = (...paths: string[]): ImageName[] => paths.map((path) => ({ path, size: 1000 }));
const rows = (...codes: string[]): MatchRow[] => codes.map((code) => ({ code, imageCells: [] }));

function matched(rowsIn: MatchRow[], list: ImageName[]) {
  const refs = matchImages(vocabulary, rowsIn, list);
  return {
    rows: refs.rows.map((r) => r.map((m) => `${list[m.image]!.path}:${m.role}:${m.by}`)),
    missing: refs.missingNames,
    unmatched: refs.unmatched.map((i) => list[i]!.path),
  };
}

describe('matching images to rows', () => {
  it('flat names that start with the code: any case, `_ - space` alike, role and index after it', () => {
    const result = matched(
      rows('A12', 'B-7', 'SS24 001'),
      images(
        'season/A12_model_1.jpg',
        'season/a12-model-2.JPG',
        'season/A12_pattern.png',
        'season/b_7 pattern.webp',
        'season/SS24-001_model.jpeg',
        'season/SS24_001.jpg',
        'season/A120_model.jpg',
      ),
    );
    expect(result.rows).toEqual([
      [
        'season/A12_model_1.jpg:model:name',
        'season/a12-model-2.JPG:model:name',
        'season/A12_pattern.png:pattern:name',
      ],
      ['season/b_7 pattern.webp:pattern:name'],
      ['season/SS24-001_model.jpeg:model:name', 'season/SS24_001.jpg:pattern:name'],
    ]);
    expect(result.unmatched).toEqual(['season/A120_model.jpg']);
  });

  it('reads role words in the five languages', () => {
    const result = matched(
      rows('A1'),
      images(
        'A1_模特_1.jpg',
        'A1_花型.jpg',
        'A1_nguoi-mau.jpg',
        'A1_นางแบบ.jpg',
        'A1_motif.jpg',
        'A1_swatch.jpg',
      ),
    );
    expect(new Set(result.rows[0])).toEqual(
      new Set([
        'A1_模特_1.jpg:model:name',
        'A1_nguoi-mau.jpg:model:name',
        'A1_นางแบบ.jpg:model:name',
        'A1_花型.jpg:pattern:name',
        'A1_motif.jpg:pattern:name',
        'A1_swatch.jpg:pattern:name',
      ]),
    );
  });

  it('one folder per code, the file name giving the role', () => {
    const result = matched(
      rows('A12', 'B7'),
      images(
        'Season/A12/model_1.jpg',
        'Season/A12/model_2.jpg',
        'Season/A12/pattern.jpg',
        'Season/b7/swatch 1.png',
        'Season/C9/model.jpg',
      ),
    );
    expect(result.rows).toEqual([
      [
        'Season/A12/model_1.jpg:model:folder',
        'Season/A12/model_2.jpg:model:folder',
        'Season/A12/pattern.jpg:pattern:folder',
      ],
      ['Season/b7/swatch 1.png:pattern:folder'],
    ]);
    expect(result.unmatched).toEqual(['Season/C9/model.jpg']);
  });

  it('columns that name the files, by name or path, several to a cell; a name that is missing is reported', () => {
    const sheetRows: MatchRow[] = [
      {
        code: 'A12',
        imageCells: [
          { column: 5, role: 'model', text: 'front.jpg; back.JPG' },
          { column: 6, role: 'pattern', text: 'swatches/a.png, nothere.png' },
        ],
      },
    ];
    const result = matched(
      sheetRows,
      images('photos/front.jpg', 'photos/back.jpg', 'swatches/a.png', 'other.png'),
    );
    expect(result.rows).toEqual([
      ['photos/back.jpg:model:column', 'photos/front.jpg:model:column', 'swatches/a.png:pattern:column'],
    ]);
    expect(result.missing).toEqual([[{ column: 6, name: 'nothere.png' }]]);
    expect(result.unmatched).toEqual(['other.png']);
  });

  it('ignores system files and what is not an image name', () => {
    expect(['a.jpg', 'A.JPEG', 'x/b.webp', 'c.gif', 'd.png'].every(isImageName)).toBe(true);
    expect(
      ['__MACOSX/._a.jpg', '.DS_Store', 'x/.hidden.jpg', 'notes.txt', 'sheet.xlsx', 'a.heic'].some(
        isImageName,
      ),
    ).toBe(false);
  });
});
