// The image enhancement stores live in the app's one IndexedDB database (lib/db, migration 3), so
// logout and account switches wipe them with everything else. The page (files) and the queue
// worker (items, results) each open their own connection to it.
import { openLoomDb, type LoomDb } from '../../lib/db/open-db';

export type { StoredFile, StoredResult } from './protocol';
export type UpscaleDb = LoomDb;

export const FILES = 'upscale-files';
export const QUEUE = 'upscale-queue';
export const RESULTS = 'upscale-results';

export function openUpscaleDb(): Promise<UpscaleDb> {
  return openLoomDb();
}
