// Reads a collection's sheet and images off the page's thread: parsing, unpacking a ZIP, matching
// and checking 500 rows against thousands of image names never blocks the page. The messages are
// described in sheet-import/protocol.ts; the page reaches it through
// src/lib/workers/sheet-import-bridge.ts.
import * as Comlink from 'comlink';
import { sheetImportApi, type SheetImportWorkerApi } from './sheet-import/worker-api';

export type { SheetImportWorkerApi };

Comlink.expose(sheetImportApi);
