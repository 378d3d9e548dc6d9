// A collection's import on the device, stage by stage: a 400-row sheet (every field of the form,
// presets in the five languages) and 2,000 image names (five per fabric: three model images and
// two pattern images, half flat names, half in a folder per code), parsed, mapped, matched and
// checked with the code the sheet worker runs (src/workers/sheet-import/import-collection.ts).
// The sheet's problems are a preset word that is no preset on every sixth row and a bad weight on
// every fiftieth. Run once as CSV and once as XLSX; prints the median of the runs per stage and the total against
// the target (2 s), with the machine line.
import writeXlsxFile from 'write-excel-file/universal';
import { LONG_TEXT_FIELDS } from '../shared/fabric/fabric-fields.js';
import { collectionVocabulary } from '../src/lib/collections/collection-vocabulary.js';
import type { CollectionImage } from '../src/lib/collections/collection-check.js';
import { importCollection, type ImportTimings } from '../src/workers/sheet-import/import-collection.js';
import { templateHeaders } from '../src/workers/sheet-import/template.js';
import { machineLine } from './machine-line.js';

const ROWS = Number(process.env.BENCH_COLLECTION_ROWS ?? 400);
const IMAGES_PER_ROW = 5;
const RUNS = Number(process.env.BENCH_COLLECTION_RUNS ?? 5);
const TARGET_MS = 2000;

const vocabulary = collectionVocabulary();
const headers = templateHeaders(vocabulary, 'en-US');
const lusters = ['Soft luster', '柔和光泽', 'Bóng nhẹ', 'เงานุ่ม', 'Kilau lembut', 'shiny'];
const rows = Array.from({ length: ROWS }, (_, i) => {
  const code = `SS27-${String(i + 1).padStart(4, '0')}`;
  return headers.map((header, column) => {
    if (column === 0) return code;
    if (header === 'Weight (g/m²)') return i % 50 === 7 ? 'heavy' : `${100 + (i % 200)} g/m²`;
    if (header === 'Luster') return lusters[i % lusters.length]!;
    if (header === 'Fabric name') return `Fabric ${i + 1}, crêpe “de Chine”`;
    if (header === 'Model images' || header === 'Pattern images') return '';
    // The free-text fields (suggested uses … other remarks), every third one filled.
    return LONG_TEXT_FIELDS.some((f) => vocabulary.templateHeaders['en-US'][f] === header) && column % 3 === 0
      ? `Note for ${code}\non two lines`
      : '';
  });
});
const images: CollectionImage[] = rows.flatMap((row, i) => {
  const code = row[0]!;
  const names = ['model_1', 'model_2', 'model_3', 'pattern_1', 'pattern_2'].slice(0, IMAGES_PER_ROW);
  return names.map((name) => ({
    path: i % 2 ? `season/${code}/${name}.jpg` : `season/${code.toLowerCase()}_${name}.JPG`,
    size: 800_000,
    type: 'image/jpeg' as const,
  }));
});

const csv = new TextEncoder().encode(
  `\ufeff${[headers, ...rows].map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\r\n')}\r\n`,
);
const xlsx = new Uint8Array(await (await writeXlsxFile([headers, ...rows]).toBlob()).arrayBuffer());

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(machineLine());
console.log(
  `Node ${process.version}; ${ROWS} rows, ${images.length} image names; median of ${RUNS} runs after a warm-up`,
);
for (const [name, bytes] of [
  ['CSV', csv],
  ['XLSX', xlsx],
] as const) {
  const runs: (ImportTimings & { totalMs: number })[] = [];
  let problems = 0;
  let counts: Record<string, number> = {};
  for (let run = 0; run <= RUNS; run += 1) {
    const timings: ImportTimings = { parseMs: 0, mapMs: 0, matchMs: 0, checkMs: 0 };
    const start = performance.now();
    const imported = await importCollection(
      vocabulary,
      { sheetName: `season.${name.toLowerCase()}`, sheetBytes: bytes, images },
      timings,
    );
    const totalMs = performance.now() - start;
    problems = imported.problems.length;
    counts = {};
    for (const p of imported.problems) counts[p.key] = (counts[p.key] ?? 0) + 1;
    if (imported.collection.rows.length !== ROWS || imported.collection.unmatched.length !== 0)
      throw new Error(
        `unexpected import: ${imported.collection.rows.length} rows, ${imported.collection.unmatched.length} unmatched`,
      );
    if (run > 0) runs.push({ ...timings, totalMs });
  }
  const stage = (key: keyof ImportTimings | 'totalMs') => median(runs.map((r) => r[key])).toFixed(1);
  const total = median(runs.map((r) => r.totalMs));
  console.log(
    `${name.padEnd(4)} (${(bytes.length / 1024).toFixed(0)} KB): parse ${stage('parseMs')} ms, map ${stage('mapMs')} ms, ` +
      `match ${stage('matchMs')} ms, check ${stage('checkMs')} ms; total ${total.toFixed(1)} ms ` +
      `(target ≤ ${TARGET_MS} ms: ${total <= TARGET_MS ? 'met' : 'MISSED'}); ${problems} problems found ${JSON.stringify(counts)}`,
  );
}
