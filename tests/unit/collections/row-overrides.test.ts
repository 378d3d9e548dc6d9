// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { collectionVocabulary } from '../../../src/lib/collections/collection-vocabulary';
import {
  buildCollection,
  rowFabric,
  type CollectionImage,
  type Problem,
} from '../../../src/lib/collections/collection-check';
import { guessField, guessMapping } from '../../../src/lib/collections/column-mapping';
import { readOverride, rowOverrides } from '../../../src/lib/collections/override-values';
import { OVERRIDE_FIELDS, type OverrideField } from '../../../src/lib/collections/sheet-fields';
import { draftOf, editCell, readyRows, setExcluded } from '../../../src/features/collections/model/collection-draft';
import { createCollectionBody, planPendingCollection } from '../../../src/features/collections/model/pending-collection';
import { defaultSettings } from '../../../src/features/collections/model/collection-settings';
import { templateHeaders } from '../../../src/workers/sheet-import/template';
import { splitWords } from '../../../src/lib/collections/words';
import en from '../../../src/i18n/locales/en-US.json';
import id from '../../../src/i18n/locales/id-ID.json';
import th from '../../../src/i18n/locales/th-TH.json';
import vi from '../../../src/i18n/locales/vi-VN.json';
import zh from '../../../src/i18n/locales/zh-CN.json';
import { SUPPORTED_LANGUAGES } from '../../../shared/i18n/languages';

const dictionaries = { en, id, th, vi, zh };

const vocabulary = collectionVocabulary();
const words = vocabulary.overrides;

describe('override columns in the sheet', () => {
  it('maps each language’s template headers of the overrides to their fields', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      const headers = templateHeaders(vocabulary, language).slice(-OVERRIDE_FIELDS.length);
      expect([language, guessMapping(vocabulary, headers)]).toEqual([language, [...OVERRIDE_FIELDS]]);
    }
  });

  it('reads their usual names in each language', () => {
    const cases: [string, OverrideField][] = [
      ['Prompt', 'image_prompt'],
      ['提示词', 'image_prompt'],
      ['Câu lệnh', 'image_prompt'],
      ['พรอมต์', 'image_prompt'],
      ['Prompt gambar', 'image_prompt'],
      ['Number of candidates', 'candidates'],
      ['候选数', 'candidates'],
      ['Số ứng viên', 'candidates'],
      ['จำนวนภาพตัวเลือก', 'candidates'],
      ['Kandidat', 'candidates'],
      ['Needs review', 'stop_for_review'],
      ['是否审核', 'stop_for_review'],
      ['Cần duyệt', 'stop_for_review'],
      ['ต้องตรวจสอบ', 'stop_for_review'],
      ['Perlu ditinjau', 'stop_for_review'],
      ['Duration (s)', 'video_duration'],
      ['时长', 'video_duration'],
      ['Thoi luong', 'video_duration'],
      ['ระยะเวลา', 'video_duration'],
      ['Durasi', 'video_duration'],
      ['Aspect ratio', 'video_aspect'],
      ['画幅', 'video_aspect'],
      ['Tỉ lệ', 'video_aspect'],
      ['อัตราส่วน', 'video_aspect'],
      ['Rasio aspek', 'video_aspect'],
      ['RESOLUTION', 'video_resolution'],
      ['清晰度', 'video_resolution'],
      ['Độ phân giải', 'video_resolution'],
      ['ความละเอียด', 'video_resolution'],
      ['Resolusi', 'video_resolution'],
      ['Camera movement', 'video_camera'],
      ['镜头运动', 'video_camera'],
      ['Máy quay', 'video_camera'],
      ['มุมกล้อง', 'video_camera'],
      ['Gerak kamera', 'video_camera'],
    ];
    for (const [header, field] of cases)
      expect([header, guessField(vocabulary, header)]).toEqual([header, field]);
  });
});

describe('reading an override cell', () => {
  const value = (field: OverrideField, text: string) => readOverride(words, field, text);

  it('overrides nothing when empty', () => {
    for (const field of OVERRIDE_FIELDS) expect(value(field, '  ')).toEqual({ ok: true, overrides: {} });
  });

  it('reads each value in all five languages and by its own name', () => {
    const cases: [OverrideField, string, object][] = [
      ['image_prompt', '  A model on a beach at noon ', { image_prompt: 'A model on a beach at noon' }],
      ['candidates', '2', { candidates: 2 }],
      ['candidates', '６', { candidates: 6 }],
      ['stop_for_review', 'Yes', { stop_for_review: true }],
      ['stop_for_review', 'no', { stop_for_review: false }],
      ['stop_for_review', 'TRUE', { stop_for_review: true }],
      ['stop_for_review', '否', { stop_for_review: false }],
      ['stop_for_review', 'Có', { stop_for_review: true }],
      ['stop_for_review', 'khong', { stop_for_review: false }],
      ['stop_for_review', 'ใช่', { stop_for_review: true }],
      ['stop_for_review', 'tidak', { stop_for_review: false }],
      ['video_duration', '10', { video: { duration: 10 } }],
      ['video_duration', '6s', { video: { duration: 6 } }],
      ['video_duration', '10 seconds', { video: { duration: 10 } }],
      ['video_duration', '１０ 秒', { video: { duration: 10 } }],
      ['video_duration', '6 giây', { video: { duration: 6 } }],
      ['video_duration', '10 วินาที', { video: { duration: 10 } }],
      ['video_duration', '6 detik', { video: { duration: 6 } }],
      ['video_aspect', 'vertical', { video: { aspect: 'vertical' } }],
      ['video_aspect', '竖屏', { video: { aspect: 'vertical' } }],
      ['video_aspect', 'Vuông', { video: { aspect: 'square' } }],
      ['video_aspect', 'แนวนอน', { video: { aspect: 'horizontal' } }],
      ['video_aspect', 'otomatis', { video: { aspect: 'auto' } }],
      ['video_resolution', '1080P', { video: { resolution: '1080P' } }],
      ['video_resolution', '512p', { video: { resolution: '512P' } }],
      ['video_resolution', '768', { video: { resolution: '768P' } }],
      ['video_camera', 'Push in, pan left', { video: { camera: ['Push in', 'Pan left'] } }],
      ['video_camera', '推进、左摇、推进', { video: { camera: ['Push in', 'Pan left'] } }],
      ['video_camera', 'Lia trái; Phóng to', { video: { camera: ['Pan left', 'Zoom in'] } }],
      ['video_camera', 'ซูมเข้า\nสั่น', { video: { camera: ['Zoom in', 'Shake'] } }],
      ['video_camera', 'Bidikan diam', { video: { camera: ['Static shot'] } }],
    ];
    for (const [field, text, overrides] of cases)
      expect([field, text, value(field, text)]).toEqual([field, text, { ok: true, overrides }]);
  });

  it('says why a value is none of the choices', () => {
    const cases: [OverrideField, string, string, object][] = [
      ['candidates', '0', 'badCandidates', { value: '0', min: 1, max: 6 }],
      ['candidates', '7', 'badCandidates', { value: '7', min: 1, max: 6 }],
      ['candidates', '2.5', 'badCandidates', { value: '2.5', min: 1, max: 6 }],
      ['candidates', 'four', 'badCandidates', { value: 'four', min: 1, max: 6 }],
      ['stop_for_review', 'maybe', 'badStopForReview', { value: 'maybe' }],
      ['video_duration', '8', 'badDuration', { value: '8', min: 6, max: 10 }],
      ['video_duration', '10 minutes', 'badDuration', { value: '10 minutes', min: 6, max: 10 }],
      ['video_duration', 'long', 'badDuration', { value: 'long', min: 6, max: 10 }],
      ['video_aspect', '4:3', 'badAspect', { value: '4:3' }],
      ['video_resolution', '4K', 'badResolution', { value: '4K', choices: '512P, 768P, 1080P' }],
      ['video_camera', 'Push in, Barrel roll', 'badCamera', { value: 'Barrel roll' }],
      ['video_camera', 'Push in, Pan left, Tilt up, Zoom in', 'tooManyCameraMoves', { count: 4, max: 3 }],
    ];
    for (const [field, text, key, values] of cases)
      expect([field, text, value(field, text)]).toEqual([field, text, { ok: false, key, values }]);
  });

  it('takes every language’s yes for yes and its no for no: no word is both', () => {
    for (const { collections } of Object.values(dictionaries)) {
      for (const w of splitWords(collections.overrideWords.yes)) expect([w, words.stop.get(w)]).toEqual([w, true]);
      for (const w of splitWords(collections.overrideWords.no)) expect([w, words.stop.get(w)]).toEqual([w, false]);
    }
  });
});

describe('a sheet with override columns', () => {
  const headers = ['Code', 'Fabric name', 'Candidates', 'Stop for review', 'Video duration', 'Camera moves', 'Image prompt'];
  const img = (path: string): CollectionImage => ({ path, size: 1000, type: 'image/jpeg' });
  const images = [img('A1_pattern.jpg'), img('B2_pattern.jpg'), img('C3_pattern.jpg')];
  const brief = (problems: Problem[]) => problems.map((p) => [p.key, p.sheetRow, p.column, p.severity]);
  const draft = (rows: string[][]) => {
    const table = { headers, rows: rows.map((cells, i) => ({ sheetRow: i + 2, cells })) };
    return draftOf(vocabulary, buildCollection(vocabulary, table, guessMapping(vocabulary, headers), images));
  };
  const rows = [
    ['A1', 'Silk', '2', 'no', '10 s', 'Push in, Pan left', 'On a terrace'],
    ['B2', 'Linen', '', '', '', '', ''],
    ['C3', 'Wool', '9', 'perhaps', '', 'Spin', 'x'.repeat(1001)],
  ];

  it('names the row and the column of each bad override, and blocks the row', () => {
    const d = draft(rows);
    expect(brief(d.problems)).toEqual([
      ['badCandidates', 4, 2, 'error'],
      ['badStopForReview', 4, 3, 'error'],
      ['badCamera', 4, 5, 'error'],
      ['tooLong', 4, 6, 'error'],
    ]);
    expect(d.problems[0]).toMatchObject({
      messageKey: 'collections.problems.badCandidates',
      values: { row: 4, column: 'Candidates', value: '9', min: 1, max: 6 },
    });
    expect(d.problems[3]!.values).toEqual({ row: 4, column: 'Image prompt', max: 1000 });
    expect(readyRows(d)).toEqual([0, 1]);
  });

  it('keeps the overrides out of the fabric form', () => {
    expect(rowFabric(vocabulary, draft(rows).collection, 0).text).toEqual({ fabric_name: 'Silk' });
  });

  it('is fixed in place, or the row left out', () => {
    let d = draft(rows);
    d = editCell(vocabulary, d, 2, 2, '3');
    d = editCell(vocabulary, d, 2, 3, 'yes');
    d = editCell(vocabulary, d, 2, 5, 'Shake');
    expect(brief(d.problems)).toEqual([['tooLong', 4, 6, 'error']]);
    d = editCell(vocabulary, d, 2, 6, '');
    expect(d.problems).toEqual([]);
    expect(readyRows(d)).toEqual([0, 1, 2]);
    expect(readyRows(setExcluded(vocabulary, draft(rows), 2, true))).toEqual([0, 1]);
  });

  it('sends each row’s overrides with its item, and none for a row without', () => {
    const d = editCell(vocabulary, setExcluded(vocabulary, draft(rows), 2, true), 1, 4, '6');
    const plan = planPendingCollection(vocabulary, d, (field, key) => `${field}:${key}`);
    expect(plan.items.map((i) => i.overrides)).toEqual([
      {
        candidates: 2,
        stop_for_review: false,
        image_prompt: 'On a terrace',
        video: { duration: 10, camera: ['Push in', 'Pan left'] },
      },
      { video: { duration: 6 } },
    ]);
    expect(plan.items[0]!.fabric).toEqual({ fabric_name: 'Silk' });
    const body = createCollectionBody({
      clientCollectionId: 'c-1',
      name: 'Summer',
      language: 'en-US',
      settings: defaultSettings('A prompt'),
      items: plan.items,
      uploadIds: ['u-1', 'u-2'],
    });
    expect(body.items[0]!.overrides).toEqual(plan.items[0]!.overrides);
    expect(body.items[1]!.overrides).toEqual({ video: { duration: 6 } });
    const clean = planPendingCollection(vocabulary, draft([rows[1]!]), (field, key) => `${field}:${key}`);
    expect(clean.items[0]).not.toHaveProperty('overrides');
  });

  it('overrides nothing for a row whose override columns are empty', () => {
    expect(rowOverrides(words, guessMapping(vocabulary, headers), rows[1]!)).toBeUndefined();
  });
});
