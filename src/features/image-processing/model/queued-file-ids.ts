// Which source files the queue already holds an item for. Enqueueing and marking the files queued
// are two steps in two places (the queue worker's store, the files store): after a crash between
// them a file looks pending although its item exists, and starting it again would send it twice.
// The queue store is the truth, so a file with an item is marked queued, never enqueued again.
import { QUEUE, openUpscaleDb } from '../../../workers/upscale-queue/upscale-db';

export async function loadQueuedFileIds(owner: string): Promise<Set<string>> {
  const db = await openUpscaleDb();
  const items = await db.getAllFromIndex(QUEUE, 'byUser', owner);
  return new Set(items.map((item) => item.fileId));
}

export function splitByQueued<T extends { id: string }>(
  files: readonly T[],
  queuedFileIds: ReadonlySet<string>,
): { fresh: T[]; alreadyQueued: T[] } {
  const fresh: T[] = [];
  const alreadyQueued: T[] = [];
  for (const file of files) (queuedFileIds.has(file.id) ? alreadyQueued : fresh).push(file);
  return { fresh, alreadyQueued };
}
