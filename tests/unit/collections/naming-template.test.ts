// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NAMING_TEMPLATE,
  MAX_NAME_BYTES,
  boundStem,
  fileNameFor,
  planIsClear,
  planNames,
  sanitizeFileName,
  unknownTokens,
  type NamingFile,
} from '../../../src/lib/collections/naming-template';

const options = { date: '2026-11-27', total: 120 };
const file = (over: Partial<NamingFile> = {}): NamingFile => ({
  row: 7,
  code: 'A12',
  name: 'Silk chiffon',
  stage: 'pick',
  extension: '.png',
  ...over,
});
const utf8 = (value: string) => new TextEncoder().encode(value).length;

describe('file names from a template', () => {
  it('fills every token; {index} is padded to the collection size so names sort in row order', () => {
    expect(fileNameFor('{code}_{name}_{stage}_{index}_{date}', file(), options)).toBe(
      'A12_Silk chiffon_pick_007_2026-11-27.png',
    );
    expect(fileNameFor('{index}-{code}', file({ row: 12, stage: 'video', extension: '.MP4' }), { date: 'x', total: 9 })).toBe(
      '12-A12.mp4',
    );
    expect(fileNameFor(DEFAULT_NAMING_TEMPLATE, file({ stage: 'video', extension: 'mp4' }), options)).toBe(
      'A12_Silk chiffon_video.mp4',
    );
  });

  it('replaces what file systems refuse, drops invisible direction marks, keeps no leading dot', () => {
    expect(fileNameFor('{name}', file({ name: 'a<b>c:d"e/f\\g|h?i*j' }), options)).toBe('a_b_c_d_e_f_g_h_i_j.png');
    expect(fileNameFor('{name}', file({ name: 'tab\there\nnewline\u0007bell' }), options)).toBe('tab here newline_bell.png');
    expect(fileNameFor('{name}', file({ name: 'photo\u202egpj.exe' }), options)).toBe('photogpj.exe.png');
    expect(fileNameFor('{name}', file({ name: '...hidden  ' }), options)).toBe('hidden.png');
    // An empty {name} leaves no doubled separator behind.
    expect(fileNameFor(DEFAULT_NAMING_TEMPLATE, file({ name: null }), options)).toBe('A12_pick.png');
    expect(sanitizeFileName('  trailing dots... ')).toBe('trailing dots');
  });

  it('keeps CJK, Thai and Vietnamese letters, Vietnamese composed (NFC)', () => {
    expect(fileNameFor('{code}_{name}', file({ code: '春季-01', name: '真丝雪纺' }), options)).toBe('春季-01_真丝雪纺.png');
    expect(fileNameFor('{name}', file({ name: 'ผ้าไหมไทย' }), options)).toBe('ผ้าไหมไทย.png');
    const decomposed = 'Lụa tơ tằm'.normalize('NFD');
    const name = fileNameFor('{name}', file({ name: decomposed }), options);
    expect(name).toBe('Lụa tơ tằm.png'.normalize('NFC'));
    expect(name.length).toBe('Lụa tơ tằm.png'.normalize('NFC').length);
  });

  it('bounds the length in UTF-8 bytes, cutting between graphemes (a Thai cluster is never split)', () => {
    const longThai = 'ก้ำ'.repeat(200);
    const name = fileNameFor('{name}', file({ name: longThai, extension: '.webp' }), options);
    expect(utf8(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(name.endsWith('.webp')).toBe(true);
    const stem = name.slice(0, -'.webp'.length);
    expect(stem.length % 'ก้ำ'.length).toBe(0);
    expect(stem).toBe('ก้ำ'.repeat(stem.length / 'ก้ำ'.length));
    const cjk = fileNameFor('{name}', file({ name: '丝'.repeat(300) }), options);
    expect(utf8(cjk)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(cjk).toMatch(/^丝+\.png$/);
    expect(boundStem('abc', '.png', 6)).toBe('ab');
  });

  it('makes device names of Windows safe', () => {
    expect(fileNameFor('{code}', file({ code: 'CON' }), options)).toBe('CON_.png');
    expect(fileNameFor('{code}', file({ code: 'lpt1' }), options)).toBe('lpt1_.png');
    expect(fileNameFor('{code}', file({ code: 'CONTOUR' }), options)).toBe('CONTOUR.png');
  });
});

describe('the plan of a whole export', () => {
  const rows: NamingFile[] = [
    file({ row: 1, code: 'A1', name: 'Linen' }),
    file({ row: 1, code: 'A1', name: 'Linen', stage: 'video', extension: '.mp4' }),
    file({ row: 2, code: 'A2', name: 'linen' }),
    file({ row: 2, code: 'A2', name: 'linen', stage: 'video', extension: '.mp4' }),
    file({ row: 3, code: 'A3', name: 'Wool' }),
  ];

  it('says which rows collide, comparing names as Windows and macOS do (case-insensitively)', () => {
    const plan = planNames('{name}', rows, options);
    expect(plan.collisions).toEqual([
      { name: 'Linen.png', rows: [1, 2], codes: ['A1', 'A2'] },
      { name: 'Linen.mp4', rows: [1, 2], codes: ['A1', 'A2'] },
    ]);
    expect(planIsClear(plan)).toBe(false);
  });

  it('is clear once the template tells the rows apart', () => {
    const plan = planNames('{code}_{name}', rows, options);
    expect(plan.collisions).toEqual([]);
    expect(plan.names).toEqual(['A1_Linen.png', 'A1_Linen.mp4', 'A2_linen.png', 'A2_linen.mp4', 'A3_Wool.png']);
    expect(planIsClear(plan)).toBe(true);
  });

  it('a template without tokens makes every row one name', () => {
    const plan = planNames('lookbook', rows, options);
    expect(plan.collisions.map((c) => c.rows)).toEqual([[1, 2, 3], [1, 2]]);
  });

  it('names unknown tokens and rows whose name is empty', () => {
    expect(unknownTokens('{code}_{colour}_{Code}_{colour}')).toEqual(['{colour}', '{Code}']);
    const plan = planNames('{name}{size}', [file({ row: 4, name: null }), file({ row: 5, name: '' })], options);
    expect(plan.unknownTokens).toEqual(['{size}']);
    // An unknown token is left as written (and blocks the export), so the name is not empty.
    expect(plan.names).toEqual(['{size}.png', '{size}.png']);
    const empty = planNames('{name}', [file({ row: 4, name: null }), file({ row: 5, name: ' ... ' })], options);
    expect(empty.emptyRows).toEqual([4, 5]);
    expect(empty.collisions).toEqual([]);
    expect(planIsClear(empty)).toBe(false);
  });
});
