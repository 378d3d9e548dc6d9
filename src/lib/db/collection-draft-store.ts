// Collections started but not yet on the server: from the moment the person presses Start, the
// create call's items, the settings, the sheet as they left it and every image (as a Blob) are kept
// here, with each image's upload as far as it got, so a reload, a lost connection or a closed tab
// resumes the uploads and the create call instead of losing them. Its own small database: drafts
// (small, rewritten as uploads finish) and their images (written once, read one at a time).
// Wiped on logout and when another user opens the page on this device.
import type { DBSchema } from 'idb';
import type { CollectionSettings, ItemOverrides } from '../../../shared/collections/collection-types';
import type { Language } from '../../../shared/i18n/languages';
import { registerLogoutCleanup } from '../session/logout-cleanup';
import { cachedConnection } from './cached-connection';

export const COLLECTION_DRAFT_DB_NAME = 'loom-studio-collection-drafts';

/** One fabric of the create call; its images are places in the draft's image list. */
export interface PendingCollectionItem {
  code: string;
  name?: string;
  fabric: Record<string, string>;
  /** The row's own settings over the collection's, when its sheet had any. */
  overrides?: ItemOverrides;
  model_images: number[];
  pattern_images: number[];
}

export interface PendingImage {
  /** The path inside the picked folder or archive. */
  name: string;
  type: string;
  size: number;
  /** The tus upload's URL once created: the next attempt resumes it. */
  uploadUrl: string | null;
  /** Set once every byte is on the server. */
  uploadId: string | null;
}

export interface PendingCollectionRecord {
  /** The create call's client_collection_id: made once, so a resend answers the same collection. */
  id: string;
  userKey: string;
  createdAt: number;
  name: string;
  language: Language;
  settings: CollectionSettings;
  items: PendingCollectionItem[];
  images: PendingImage[];
  /** The sheet as the person left it (their fixes, the rows left out), kept with the draft. */
  sheet: {
    headers: string[];
    mapping: (string | null)[];
    rows: { sheetRow: number; cells: string[]; excluded: boolean }[];
  };
  /** Refused by the server (not a lost connection): waits for the person, with its message. */
  refused: { code: string; message: string } | null;
}

interface ImageRecord {
  draftId: string;
  index: number;
  blob: Blob;
}

/**
 * The import before Start, one per user: the chosen sheet and images (written when chosen) and
 * the person's work on them (the mapping, fixed cells, rows left out, the name and the settings;
 * written shortly after each change), so a reload reopens the import where it was.
 */
export interface WorkingImport {
  userKey: string;
  savedAt: number;
  sheet: File | null;
  images: { kind: 'none' } | { kind: 'folder'; files: File[]; paths?: string[] } | { kind: 'zip'; file: File };
  mapping: (string | null)[] | null;
  rows: { cells: string[]; excluded: boolean }[] | null;
  name: string;
  settings: CollectionSettings | null;
}

interface DraftDbSchema extends DBSchema {
  drafts: { key: string; value: PendingCollectionRecord; indexes: { byUser: string } };
  images: { key: [string, number]; value: ImageRecord; indexes: { byDraft: string } };
  working: { key: string; value: WorkingImport };
}

const connection = cachedConnection<DraftDbSchema>(COLLECTION_DRAFT_DB_NAME, 1, (db) => {
  db.createObjectStore('drafts', { keyPath: 'id' }).createIndex('byUser', 'userKey');
  db.createObjectStore('images', { keyPath: ['draftId', 'index'] }).createIndex('byDraft', 'draftId');
  db.createObjectStore('working', { keyPath: 'userKey' });
});
const open = () => connection.open();

/** Keeps a draft and its images in one transaction: all of it or nothing (a full disk refuses it whole). */
export async function savePendingCollection(record: PendingCollectionRecord, blobs: readonly Blob[]): Promise<void> {
  if (blobs.length !== record.images.length) throw new Error('every pending image needs its Blob');
  const db = await open();
  const tx = db.transaction(['drafts', 'images'], 'readwrite');
  await Promise.all([
    tx.objectStore('drafts').put(record),
    ...blobs.map((blob, index) => tx.objectStore('images').put({ draftId: record.id, index, blob })),
    tx.done,
  ]);
}

/** This user's pending collections, oldest first. */
export async function readPendingCollections(userKey: string): Promise<PendingCollectionRecord[]> {
  const db = await open();
  const all = await db.getAllFromIndex('drafts', 'byUser', userKey);
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

export async function readPendingCollection(id: string): Promise<PendingCollectionRecord | undefined> {
  const db = await open();
  return db.get('drafts', id);
}

export async function readPendingImage(id: string, index: number): Promise<Blob | undefined> {
  const db = await open();
  return (await db.get('images', [id, index]))?.blob;
}

/** Changes a kept draft in one transaction (read, change, write), so two finished uploads never undo each other. */
export async function updatePendingCollection(
  id: string,
  change: (record: PendingCollectionRecord) => PendingCollectionRecord,
): Promise<PendingCollectionRecord | undefined> {
  const db = await open();
  const tx = db.transaction('drafts', 'readwrite');
  const current = await tx.store.get(id);
  const next = current ? change(current) : undefined;
  if (next) await tx.store.put(next);
  await tx.done;
  return next;
}

export async function deletePendingCollection(id: string): Promise<void> {
  const db = await open();
  const tx = db.transaction(['drafts', 'images'], 'readwrite');
  await tx.objectStore('drafts').delete(id);
  const images = tx.objectStore('images');
  for (const key of await images.index('byDraft').getAllKeys(id)) await images.delete(key);
  await tx.done;
}

export async function readWorkingImport(userKey: string): Promise<WorkingImport | undefined> {
  const db = await open();
  return db.get('working', userKey);
}

export async function writeWorkingImport(record: WorkingImport): Promise<void> {
  const db = await open();
  await db.put('working', record);
}

/** Changes the person's work on the import, keeping the files as they were written. */
export async function patchWorkingImport(
  userKey: string,
  change: Partial<Pick<WorkingImport, 'mapping' | 'rows' | 'name' | 'settings'>>,
): Promise<void> {
  const db = await open();
  const tx = db.transaction('working', 'readwrite');
  const current = await tx.store.get(userKey);
  if (current) await tx.store.put({ ...current, ...change, savedAt: Date.now() });
  await tx.done;
}

export async function deleteWorkingImport(userKey: string): Promise<void> {
  const db = await open();
  await db.delete('working', userKey);
}

/** Every other user's drafts and import (another account signed in on a shared tablet). */
export async function wipeOtherPendingCollections(keep: string): Promise<void> {
  const db = await open();
  const others = (await db.getAll('drafts')).filter((d) => d.userKey !== keep);
  for (const draft of others) await deletePendingCollection(draft.id);
  for (const key of await db.getAllKeys('working')) if (key !== keep) await db.delete('working', key);
}

export async function wipeAllPendingCollections(): Promise<void> {
  const db = await open();
  const tx = db.transaction(['drafts', 'images', 'working'], 'readwrite');
  await Promise.all([
    tx.objectStore('drafts').clear(),
    tx.objectStore('images').clear(),
    tx.objectStore('working').clear(),
    tx.done,
  ]);
}

registerLogoutCleanup(() => wipeAllPendingCollections().catch(() => undefined));
