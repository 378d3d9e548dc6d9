import { describe, expect, it } from 'vitest';
import { mergeRecent, recentLink } from '../../../src/features/home/model/recent-work';

const item = (id: number, at: string, label: string | null = null) => ({
  id,
  status: 'completed' as const,
  label,
  thumbnail_url: `/t/${id}`,
  created_at: at,
});

describe('home recent work', () => {
  it('puts images and videos together, newest first, at most the count', () => {
    const images = [item(9, '2026-01-03T10:00:00Z', 'Close-up'), item(8, '2026-01-01T10:00:00Z')];
    const videos = [item(2, '2026-01-04T10:00:00Z'), item(1, '2026-01-02T10:00:00Z')];
    const merged = mergeRecent(images, videos, 3);
    expect(merged.map((m) => `${m.kind}-${m.id}`)).toEqual(['video-2', 'image-9', 'video-1']);
    expect(merged[1]).toEqual({
      kind: 'image',
      id: 9,
      status: 'completed',
      label: 'Close-up',
      thumbnailUrl: '/t/9',
      createdAt: '2026-01-03T10:00:00Z',
    });
  });

  it('orders items of the same moment by id, newest first', () => {
    const at = '2026-01-01T10:00:00Z';
    expect(mergeRecent([item(3, at), item(4, at)], []).map((m) => m.id)).toEqual([4, 3]);
  });

  it('opens an item in its history detail', () => {
    expect(recentLink({ kind: 'image', id: 5 })).toBe('/history?image=5');
    expect(recentLink({ kind: 'video', id: 2 })).toBe('/history?tab=videos&video=2');
  });
});
