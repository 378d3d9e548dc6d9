// The difference view's word diff, the image rules (type, 10 MB, six per item), and the hand-off
// to the video workflow.
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, sortFiles } from '../../../src/features/workshop/model/file-rules';
import { changedShare, diffTexts, sides, tokenize } from '../../../src/features/workshop/model/text-diff';
import { offerToVideo, takeVideoHandoff, VIDEO_HANDOFF_KEY } from '../../../src/lib/handoff/video-handoff';

describe('text diff', () => {
  it('marks removed and added words, keeping the rest', () => {
    const parts = diffTexts('light cotton voile', 'featherlight cotton voile');
    expect(parts).toEqual([
      { kind: 'removed', text: 'light' },
      { kind: 'added', text: 'featherlight' },
      { kind: 'same', text: ' cotton voile' },
    ]);
    const { left, right } = sides(parts);
    expect(left.map((p) => p.text).join('')).toBe('light cotton voile');
    expect(right.map((p) => p.text).join('')).toBe('featherlight cotton voile');
  });

  it('splits Chinese into characters and keeps identical texts the same', () => {
    expect(tokenize('春夏面料 voile')).toEqual(['春', '夏', '面', '料', ' ', 'voile']);
    expect(diffTexts('同样', '同样')).toEqual([{ kind: 'same', text: '同样' }]);
    expect(changedShare(diffTexts('同样', '同样'))).toBe(0);
    expect(changedShare(diffTexts('', 'new'))).toBe(1);
  });

  it('handles empty sides', () => {
    expect(diffTexts('', '')).toEqual([]);
    expect(diffTexts('gone', '')).toEqual([{ kind: 'removed', text: 'gone' }]);
  });
});

describe('image rules', () => {
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  it('refuses wrong types, oversized files and more than six images, each with its reason', () => {
    const { accepted, rejected } = sortFiles(4, [
      file('a.png', 'image/png'),
      file('b.txt', 'text/plain'),
      file('c.jpg', 'image/jpeg', MAX_FILE_BYTES + 1),
      file('d.webp', 'image/webp'),
      file('e.gif', 'image/gif'),
    ]);
    expect(accepted.map((f) => f.name)).toEqual(['a.png', 'd.webp']);
    expect(rejected).toEqual([
      { name: 'b.txt', reason: 'type' },
      { name: 'c.jpg', reason: 'size' },
      { name: 'e.gif', reason: 'count' },
    ]);
  });

  it('judges a file without a type by its name', () => {
    expect(sortFiles(0, [file('photo.JPEG', ''), file('photo.heic', '')]).rejected).toEqual([{ name: 'photo.heic', reason: 'type' }]);
  });
});

describe('video hand-off', () => {
  it('is taken once', () => {
    offerToVideo(sessionStorage, { version: 1, kind: 'description', text: 'Rose voile', createdAt: 1 });
    expect(takeVideoHandoff(sessionStorage)).toEqual({ version: 1, kind: 'description', text: 'Rose voile', createdAt: 1 });
    expect(takeVideoHandoff(sessionStorage)).toBeNull();
  });

  it('ignores anything it cannot read', () => {
    sessionStorage.setItem(VIDEO_HANDOFF_KEY, '{"version":2}');
    expect(takeVideoHandoff(sessionStorage)).toBeNull();
    sessionStorage.setItem(VIDEO_HANDOFF_KEY, 'garbage');
    expect(takeVideoHandoff(sessionStorage)).toBeNull();
    expect(sessionStorage.getItem(VIDEO_HANDOFF_KEY)).toBeNull();
  });
});
