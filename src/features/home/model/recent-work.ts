// The home page's recent work: the newest generated images and videos together, newest first.
import type { ApiSchema } from '../../../lib/api/api-types';

export type RecentStatus = ApiSchema<'GeneratedImage'>['status'];

/** What the page reads of an item of either list (a video has no label). */
export type RecentSource = Pick<ApiSchema<'VideoGeneration'>, 'id' | 'status' | 'thumbnail_url' | 'created_at'> & {
  label?: string | null;
};

export interface RecentItem {
  kind: 'image' | 'video';
  id: number;
  status: RecentStatus;
  label: string | null;
  thumbnailUrl: string | null;
  createdAt: string;
}

export const RECENT_COUNT = 6;

export function mergeRecent(images: readonly RecentSource[], videos: readonly RecentSource[], count = RECENT_COUNT): RecentItem[] {
  const as = (kind: RecentItem['kind']) => (s: RecentSource): RecentItem => ({
    kind,
    id: s.id,
    status: s.status,
    label: s.label ?? null,
    thumbnailUrl: s.thumbnail_url,
    createdAt: s.created_at,
  });
  return [...images.map(as('image')), ...videos.map(as('video'))]
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.kind === b.kind ? b.id - a.id : 0))
    .slice(0, count);
}

/** Where an item opens: its detail dialog on the history page. */
export function recentLink(item: Pick<RecentItem, 'kind' | 'id'>): string {
  return item.kind === 'image' ? `/history?image=${item.id}` : `/history?tab=videos&video=${item.id}`;
}
