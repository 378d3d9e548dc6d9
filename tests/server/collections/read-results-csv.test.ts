// The results sheet as a spreadsheet reads it: a cell that would run as a formula comes out as
// text, every other cell round-trips through a CSV parser unchanged, the header and the words are
// in the reader's language, and a BOM tells Excel it is UTF-8.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { CollectionItemView } from '../../../shared/collections/collection-types.js';
import { resultsCsv, resultsDisposition } from '../../../server/modules/collections/results-csv.js';

function item(over: Partial<CollectionItemView> & Pick<CollectionItemView, 'id' | 'position' | 'code'>): CollectionItemView {
  return {
    name: null,
    status: 'queued',
    stage: 'analysis',
    error: null,
    request_id: null,
    candidates: [],
    picked_image_id: null,
    pick_by: null,
    pick_reason: null,
    video_prompt: null,
    video: null,
    updated_at: '2026-11-27T20:00:00.000Z',
    ...over,
  };
}

const ORIGIN = 'https://studio.example';

/** The sheet's rows as a spreadsheet would read them (the BOM taken off first). */
function parse(csv: string): string[][] {
  expect(csv.startsWith('\ufeff')).toBe(true);
  const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

describe('results CSV', () => {
  const done = item({
    id: 1,
    position: 1,
    code: 'F-001',
    name: 'Linen, "washed"\nsecond line',
    status: 'done',
    stage: 'video',
    request_id: 7,
    candidates: [
      { image_id: 70, position: 0, status: 'completed', url: '/api/files/a/image-70.png?sig=x', thumbnail_url: null, score: 0.4, model_rank: null },
      { image_id: 71, position: 1, status: 'completed', url: '/api/files/b/image-71.png?sig=y', thumbnail_url: null, score: 0.9, model_rank: null },
    ],
    picked_image_id: 71,
    pick_by: 'score',
    video: { id: 9, status: 'completed', progress: 100, url: '/api/files/c/video-9.mp4?sig=z', thumbnail_url: null },
  });
  const hostile = item({ id: 2, position: 0, code: '=HYPERLINK("http://evil.example","click")', name: '@SUM(A1:A9)' });
  const failed = item({
    id: 3,
    position: 2,
    code: '-12',
    name: '+cmd\n|calc',
    status: 'failed',
    stage: 'candidates',
    error: { code: 'quota', message: 'Image generation failed: the quota is used up' },
  });
  const tabbed = item({ id: 4, position: 3, code: '\tT-4', name: '=1+1\n2', status: 'skipped' });

  it('escapes cells a spreadsheet would run as formulas, even with a line break after the sign', () => {
    const rows = parse(resultsCsv([done, hostile, failed, tabbed], 'en-US', ORIGIN));
    const byCode = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byCode.get('\'=HYPERLINK("http://evil.example","click")')?.[1]).toBe("'@SUM(A1:A9)");
    expect(byCode.get("'-12")?.[1]).toBe("'+cmd\n|calc");
    expect(byCode.get("'\tT-4")?.[1]).toBe("'=1+1\n2");
    // No cell of the sheet starts with a formula sign.
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('round-trips commas, quotes and line breaks, in sheet order, with absolute links', () => {
    const rows = parse(resultsCsv([done, hostile, failed], 'en-US', ORIGIN));
    expect(rows[0]).toEqual(['Code', 'Name', 'Status', 'Stage', 'Error', 'Picked image link', 'Video link']);
    expect(rows.map((r) => r[0])).toEqual(['Code', '\'=HYPERLINK("http://evil.example","click")', 'F-001', "'-12"]);
    expect(rows[2]).toEqual([
      'F-001',
      'Linen, "washed"\nsecond line',
      'Done',
      'Video',
      '',
      `${ORIGIN}/api/files/b/image-71.png?sig=y`,
      `${ORIGIN}/api/files/c/video-9.mp4?sig=z`,
    ]);
    expect(rows[3]).toEqual(["'-12", "'+cmd\n|calc", 'Failed', 'Candidates', 'Image generation failed: the quota is used up', '', '']);
  });

  it("writes the header and the words in the reader's language", () => {
    const zh = parse(resultsCsv([done], 'zh-CN', ORIGIN));
    expect(zh[0]).toEqual(['编号', '名称', '状态', '阶段', '错误', '选中图片链接', '视频链接']);
    expect(zh[1]!.slice(2, 4)).toEqual(['已完成', '视频']);
    const th = parse(resultsCsv([failed], 'th-TH', ORIGIN));
    expect(th[0]![0]).toBe('รหัส');
    expect(th[1]!.slice(2, 4)).toEqual(['ล้มเหลว', 'ภาพตัวเลือก']);
  });

  it('is a header alone, with CRLF line ends, for a collection without items', () => {
    const csv = resultsCsv([], 'en-US', ORIGIN);
    expect(csv).toBe('\ufeffCode,Name,Status,Stage,Error,Picked image link,Video link\r\n');
  });

  it("names the download after the collection, in UTF-8 beside a plain fallback", () => {
    expect(resultsDisposition('春季 面料/2027')).toBe(
      `attachment; filename="2027.csv"; filename*=UTF-8''${encodeURIComponent('春季 面料 2027.csv')}`,
    );
    expect(resultsDisposition('Spring "27"')).toBe(`attachment; filename="Spring 27.csv"; filename*=UTF-8''Spring%2027.csv`);
    expect(resultsDisposition('//')).toBe(`attachment; filename="collection.csv"; filename*=UTF-8''collection.csv`);
  });
});
