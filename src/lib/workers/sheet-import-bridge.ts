// Main-thread side of the sheet import worker; it starts on the first import and stops after 30 s
// without work. Only the collection page imports this, so the sheet libraries load with it.
import type { Language } from '../../../shared/i18n/languages';
import type { SheetImportWorkerApi } from '../../workers/sheet-import.worker';
import type { ImportAnswer, ImportRequest, TemplateFormat } from '../../workers/sheet-import/protocol';
import { createWorkerHandle } from './worker-handle';

export type { ImportAnswer, ImportRequest, TemplateFormat };

const handle = createWorkerHandle<SheetImportWorkerApi>(
  () =>
    new Worker(new URL('../../workers/sheet-import.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sheet-import',
    }),
  30_000,
);

export async function importSheet(request: ImportRequest): Promise<ImportAnswer> {
  try {
    return await handle.get().import(request);
  } finally {
    handle.touch();
  }
}

export async function sheetTemplate(language: Language, format: TemplateFormat): Promise<Blob> {
  try {
    return await handle.get().template(language, format);
  } finally {
    handle.touch();
  }
}
