// The page's side of the kept videos (kept-videos.ts): the person's budget and "latest N" choice
// (this device's settings), the list every view shares, and keep/remove that refresh it.
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { registerLogoutCleanup } from '../session/logout-cleanup';
import { fitKeptVideos, keepVideo, keptVideoKey, readKeptVideos, removeKeptVideo, type KeptVideo } from './kept-videos';

export const BUDGET_CHOICES_MB = [100, 250, 500, 1000, 2000] as const;
export const LATEST_CHOICES = [0, 1, 3, 5, 10] as const;
export interface KeptVideoSettings {
  budgetMb: number;
  /** Keep the newest N finished videos by themselves (0: only the chosen ones). */
  latest: number;
}
// Nothing is downloaded by itself until the person asks for it (a fair's network may be metered).
export const DEFAULT_KEPT_VIDEO_SETTINGS: KeptVideoSettings = { budgetMb: 500, latest: 0 };
const SETTINGS_KEY = 'keptVideos';

interface Snapshot {
  settings: KeptVideoSettings;
  videos: KeptVideo[];
  loaded: boolean;
}

let snapshot: Snapshot = { settings: readSettings(), videos: [], loaded: false };
const listeners = new Set<() => void>();

function readSettings(): KeptVideoSettings {
  try {
    const stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null') as Partial<KeptVideoSettings> | null;
    return {
      budgetMb: BUDGET_CHOICES_MB.find((c) => c === stored?.budgetMb) ?? DEFAULT_KEPT_VIDEO_SETTINGS.budgetMb,
      latest: LATEST_CHOICES.find((c) => c === stored?.latest) ?? DEFAULT_KEPT_VIDEO_SETTINGS.latest,
    };
  } catch {
    return DEFAULT_KEPT_VIDEO_SETTINGS;
  }
}

function publish(next: Partial<Snapshot>): void {
  snapshot = { ...snapshot, ...next };
  listeners.forEach((l) => l());
}

const storage = (): CacheStorage | null => (typeof caches === 'undefined' ? null : caches);
const base = () => location.origin;

export async function refreshKeptVideos(): Promise<void> {
  const s = storage();
  publish({ videos: s ? await readKeptVideos(s, base()).catch(() => []) : [], loaded: true });
}

export const budgetBytes = (settings: KeptVideoSettings) => settings.budgetMb * 1024 * 1024;

export async function saveKeptVideoSettings(settings: KeptVideoSettings): Promise<void> {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  publish({ settings });
  const s = storage();
  if (s) await fitKeptVideos(s, budgetBytes(settings), base());
  await refreshKeptVideos();
}

/** Keeps one video (downloads it whole); the list refreshes whatever the outcome. */
export async function keepVideoOnDevice(url: string, videoId: number, chosen: boolean): Promise<KeptVideo> {
  const s = storage();
  if (!s) throw new Error('no cache storage');
  try {
    return await keepVideo(s, { url, videoId, chosen, budgetBytes: budgetBytes(snapshot.settings), base: base() });
  } finally {
    await refreshKeptVideos();
  }
}

export async function removeVideoFromDevice(key: string): Promise<void> {
  const s = storage();
  if (s) await removeKeptVideo(s, key, base());
  await refreshKeptVideos();
}

export function keptKeyOf(url: string): string {
  return keptVideoKey(url, base());
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const get = () => snapshot;

export function useKeptVideos(): Snapshot & { bytes: number; isKept: (url: string | null | undefined) => KeptVideo | undefined } {
  const state = useSyncExternalStore(subscribe, get, get);
  useEffect(() => {
    if (!snapshot.loaded) void refreshKeptVideos();
  }, []);
  const isKept = useCallback(
    (url: string | null | undefined) => (url ? state.videos.find((v) => v.key === keptKeyOf(url)) : undefined),
    [state.videos],
  );
  return { ...state, bytes: state.videos.reduce((sum, v) => sum + v.bytes, 0), isKept };
}

/** Logout: the cache itself goes with every user cache; the list in memory goes here. */
export function forgetKeptVideos(): void {
  publish({ videos: [], loaded: false });
}

registerLogoutCleanup(forgetKeptVideos);
