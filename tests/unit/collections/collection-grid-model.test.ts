// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { CollectionItemView, CollectionView, StageCounts } from '../../../shared/collections/collection-types';
import { formatDuration } from '../../../src/features/collections/model/collection-estimate';
import { applyCollectionEvent, applyProgressEvent, isFinished } from '../../../src/features/collections/model/collection-events';
import { matchesFilter, parseFilter } from '../../../src/features/collections/model/collection-filter';
import { extensionOf, lookbookFiles } from '../../../src/features/collections/model/collection-lookbook';
import { commandsFor, mayChangePick, stageState } from '../../../src/features/collections/model/collection-stage-state';

const counts = (over: Partial<StageCounts> = {}): StageCounts => ({
  queued: 0, running: 0, review: 0, done: 0, failed: 0, skipped: 0, cancelled: 0, ...over,
});

function item(id: number, over: Partial<CollectionItemView> = {}): CollectionItemView {
  return {
    id, position: id, code: `C${id}`, name: `Fabric ${id}`, status: 'queued', stage: 'analysis', error: null,
    request_id: null, candidates: [], picked_image_id: null, pick_by: null, pick_reason: null, video_prompt: null,
    video: null, updated_at: '2026-11-27T00:00:00Z', ...over,
  };
}

function view(items: CollectionItemView[], over: Partial<CollectionView> = {}): CollectionView {
  return {
    id: 1, client_collection_id: 'c1', name: 'SS27', status: 'running', total: items.length, counts: counts({ queued: items.length }),
    created_at: '2026-11-27T00:00:00Z', completed_at: null,
    settings: { image_prompt: 'p', candidates: 2, pick_rule: 'score', stop_for_review: false, video: { kind: 'standard', aspect: 'auto', camera: [], duration: 6, resolution: '768P' } },
    language: 'en-US', by_stage: { analysis: items.length, candidates: 0, pick: 0, video_prompts: 0, video: 0 }, estimate_ms: null, items, ...over,
  };
}

const candidate = (image_id: number, position: number, url: string | null = `/api/files/${image_id}/c${image_id}.png?sig=x`) => ({
  image_id, position, status: 'completed' as const, url, thumbnail_url: url ? `${url}&thumb=1` : null, score: 0.5, model_rank: null,
});

describe('the event stream applied to the collection', () => {
  it('a snapshot replaces, an item moves one row with the new counts, status moves the collection', () => {
    const first = view([item(1), item(2)]);
    const snap = view([item(1, { status: 'running' }), item(2)]);
    expect(applyCollectionEvent(first, { type: 'snapshot', collection: snap })).toBe(snap);
    const moved = applyCollectionEvent(snap, {
      type: 'item', item: item(2, { status: 'running', stage: 'candidates' }), counts: counts({ running: 2 }),
      by_stage: { analysis: 1, candidates: 1, pick: 0, video_prompts: 0, video: 0 }, estimate_ms: 60_000,
    })!;
    expect(moved.items.map((i) => [i.id, i.status, i.stage])).toEqual([[1, 'running', 'analysis'], [2, 'running', 'candidates']]);
    expect(moved.counts.running).toBe(2);
    expect(moved.estimate_ms).toBe(60_000);
    expect(snap.items[1]!.status).toBe('queued');
    expect(applyCollectionEvent(moved, { type: 'status', status: 'paused' })!.status).toBe('paused');
    expect(applyCollectionEvent(undefined, { type: 'status', status: 'paused' })).toBeUndefined();
  });

  it('an item not yet in the view is put in its place by position', () => {
    const next = applyCollectionEvent(view([item(1), item(3)]), {
      type: 'item', item: item(2), counts: counts(), by_stage: { analysis: 0, candidates: 0, pick: 0, video_prompts: 0, video: 0 }, estimate_ms: null,
    })!;
    expect(next.items.map((i) => i.id)).toEqual([1, 2, 3]);
  });

  it('video progress moves the row’s video; other stages go to the progress map only', () => {
    const withVideo = view([item(1, { status: 'running', stage: 'video', video: { id: 9, status: 'generating', progress: 0, url: null, thumbnail_url: null } })]);
    const next = applyCollectionEvent(withVideo, { type: 'progress', item_id: 1, stage: 'video', progress: 40 })!;
    expect(next.items[0]!.video!.progress).toBe(40);
    expect(applyCollectionEvent(withVideo, { type: 'progress', item_id: 1, stage: 'analysis', progress: 40 })).toBe(withVideo);
    let map = applyProgressEvent(new Map(), { type: 'progress', item_id: 1, stage: 'analysis', progress: 140 });
    expect(map.get(1)).toEqual({ stage: 'analysis', progress: 100 });
    map = applyProgressEvent(map, {
      type: 'item', item: item(1, { status: 'running', stage: 'candidates' }), counts: counts(),
      by_stage: { analysis: 0, candidates: 1, pick: 0, video_prompts: 0, video: 0 }, estimate_ms: null,
    });
    expect(map.has(1)).toBe(false);
  });

  it('completed and cancelled collections are finished', () => {
    expect(isFinished({ status: 'completed' })).toBe(true);
    expect(isFinished({ status: 'cancelled' })).toBe(true);
    expect(isFinished({ status: 'paused' })).toBe(false);
  });
});

describe('a row’s cells and commands', () => {
  it('says each stage’s state from the row’s status and stage', () => {
    const running = item(1, { status: 'running', stage: 'pick' });
    expect(['analysis', 'candidates', 'pick', 'video_prompts', 'video'].map((s) => stageState(running, s as never))).toEqual([
      'done', 'done', 'running', 'waiting', 'waiting',
    ]);
    expect(stageState(item(1, { status: 'failed', stage: 'video' }), 'video')).toBe('failed');
    expect(stageState(item(1, { status: 'review', stage: 'video_prompts' }), 'video_prompts')).toBe('review');
    expect(stageState(item(1, { status: 'skipped', stage: 'candidates' }), 'video')).toBe('stopped');
    expect(stageState(item(1, { status: 'done', stage: 'video' }), 'analysis')).toBe('done');
  });

  it('offers the moves the server accepts', () => {
    expect(commandsFor({ status: 'review' })).toEqual(['approve', 'skip', 'regenerate']);
    expect(commandsFor({ status: 'failed' })).toEqual(['retry', 'skip', 'regenerate']);
    expect(commandsFor({ status: 'queued' })).toEqual(['skip']);
    expect(commandsFor({ status: 'done' })).toEqual(['regenerate']);
    expect(commandsFor({ status: 'running' })).toEqual([]);
    expect(mayChangePick({ status: 'review', candidates: [candidate(1, 0), candidate(2, 1)] })).toBe(true);
    expect(mayChangePick({ status: 'running', candidates: [candidate(1, 0), candidate(2, 1)] })).toBe(false);
    expect(mayChangePick({ status: 'done', candidates: [candidate(1, 0), candidate(2, 1)] })).toBe(false);
    expect(mayChangePick({ status: 'review', candidates: [candidate(1, 0)] })).toBe(false);
  });

  it('filters by state from the address', () => {
    expect(parseFilter('failed')).toBe('failed');
    expect(parseFilter('bogus')).toBe('all');
    expect(parseFilter(null)).toBe('all');
    expect(matchesFilter({ status: 'review' }, 'review')).toBe(true);
    expect(matchesFilter({ status: 'done' }, 'failed')).toBe(false);
    expect(matchesFilter({ status: 'done' }, 'all')).toBe(true);
  });
});

describe('the lookbook’s files', () => {
  it('takes each row’s picked image and finished video, numbered by their place', () => {
    const rows = [
      item(10, { status: 'done', candidates: [candidate(1, 0), candidate(2, 1)], picked_image_id: 2, video: { id: 5, status: 'completed', progress: 100, url: '/api/files/5/v.mp4?sig=1', thumbnail_url: null } }),
      item(11, { status: 'running', candidates: [candidate(3, 0)], picked_image_id: 3 }),
      item(12, { status: 'failed' }),
    ];
    const files = lookbookFiles(rows, { images: true, videos: true });
    expect(files.map((f) => [f.file.row, f.file.code, f.file.stage, f.file.extension, f.url])).toEqual([
      [1, 'C10', 'pick', '.png', '/api/files/2/c2.png?sig=x'],
      [1, 'C10', 'video', '.mp4', '/api/files/5/v.mp4?sig=1'],
      [2, 'C11', 'pick', '.png', '/api/files/3/c3.png?sig=x'],
    ]);
    expect(lookbookFiles(rows, { images: false, videos: true })).toHaveLength(1);
    expect(extensionOf('https://s3.example/b/key.JPEG?X-Amz=1', '.png')).toBe('.jpeg');
    expect(extensionOf('/api/files/7', '.mp4')).toBe('.mp4');
  });
});

describe('the time left in words', () => {
  it('rounds to seconds, minutes, or hours and minutes in the reader’s language', () => {
    expect(formatDuration(20_000, 'en-US')).toBe('20 seconds');
    expect(formatDuration(12 * 60_000 + 10_000, 'en-US')).toBe('12 minutes');
    expect(formatDuration(65 * 60_000, 'en-US')).toBe('1 hour 5 minutes');
    expect(formatDuration(120 * 60_000, 'en-US')).toBe('2 hours');
    expect(formatDuration(5 * 60_000, 'zh-CN')).toBe('5分钟');
  });
});
