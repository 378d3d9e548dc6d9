// GET /collections/:id/results.csv: one row per fabric (code, name, status, stage, error, picked
// image link, video link), headers and words in the reader's language. Written by papaparse; a cell
// a spreadsheet would run as a formula (= + - @, tab, CR first) gets a leading ' so it is read as
// text. papaparse's own pattern for that (escapeFormulae: true) ends in `.*$` without the s flag,
// so a cell with a line break after its "=" would slip through: ours only looks at the first
// character. A UTF-8 BOM first, so Excel reads the file as UTF-8 (Chinese, Thai, Vietnamese names)
// instead of the system's code page.
import Papa from 'papaparse';
import type { CollectionItemView, ItemStatus, Stage } from '../../../shared/collections/collection-types.js';
import { message, type Locale, type MessageKey } from '../../http/messages.js';

/** What a spreadsheet takes for the start of a formula. */
export const FORMULA_START = /^[=+\-@\t\r]/;

const BOM = '\ufeff';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

const HEADER_KEYS: readonly MessageKey[] = [
  'results_csv_code',
  'results_csv_name',
  'results_csv_status',
  'results_csv_stage',
  'results_csv_error',
  'results_csv_picked_image',
  'results_csv_video',
];

const STATUS_KEYS: Record<ItemStatus, MessageKey> = {
  queued: 'collection_item_queued',
  running: 'collection_item_running',
  review: 'collection_item_review',
  done: 'collection_item_done',
  failed: 'collection_item_failed',
  skipped: 'collection_item_skipped',
  cancelled: 'collection_item_cancelled',
};

const STAGE_KEYS: Record<Stage, MessageKey> = {
  analysis: 'collection_stage_analysis',
  candidates: 'collection_stage_candidates',
  pick: 'collection_stage_pick',
  video_prompts: 'collection_stage_video_prompts',
  video: 'collection_stage_video',
};

/** One fabric's row: the view's fields, its links made absolute (a sheet is read outside the PWA). */
function rowOf(item: CollectionItemView, locale: Locale, origin: string): string[] {
  const absolute = (link: string | null | undefined) => (link ? `${origin}${link}` : '');
  const picked = item.candidates.find((c) => c.image_id === item.picked_image_id);
  return [
    item.code,
    item.name ?? '',
    message(STATUS_KEYS[item.status], locale),
    message(STAGE_KEYS[item.stage], locale),
    item.error?.message ?? '',
    absolute(picked?.url),
    absolute(item.video?.url),
  ];
}

/**
 * The results sheet of a collection's items (in sheet order), with a BOM and CRLF line ends.
 * `origin` (scheme and host) goes before each link.
 */
export function resultsCsv(items: readonly CollectionItemView[], locale: Locale, origin: string): string {
  const header = HEADER_KEYS.map((key) => message(key, locale));
  const rows = [...items].sort((a, b) => a.position - b.position).map((item) => rowOf(item, locale, origin));
  return BOM + Papa.unparse([header, ...rows], { escapeFormulae: FORMULA_START, newline: '\r\n' }) + '\r\n';
}

/**
 * `attachment` with the collection's name: a plain ASCII fallback for old clients and the name
 * itself in RFC 5987's filename* (UTF-8, percent-encoded), so Chinese names reach the file.
 */
export function resultsDisposition(collectionName: string): string {
  const cleaned = collectionName.replace(/[\\/:*?"<>|\p{Cc}]/gu, ' ').replace(/\s+/g, ' ').trim();
  // Cut by characters, not UTF-16 units, so a name is never cut inside one.
  const base = Array.from(cleaned).slice(0, 120).join('').trim() || 'collection';
  const ascii = base.replace(/[^\x20-\x7e]/g, '').replace(/\s+/g, ' ').trim() || 'collection';
  const encoded = encodeURIComponent(`${base}.csv`).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}.csv"; filename*=UTF-8''${encoded}`;
}
