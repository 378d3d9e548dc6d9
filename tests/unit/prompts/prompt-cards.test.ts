import { describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../../../src/lib/db/schema';
import { formatRelativeTime } from '../../../src/lib/offline/relative-time';
import { buildPromptCards, PROMPT_OUTBOX_KIND } from '../../../src/features/prompts/model/prompt-cards';
import { validatePromptContent, type Prompt, type PromptChange } from '../../../src/features/prompts/model/prompt';

const saved = (type: Prompt['type'], content: string): Prompt => ({
  id: 1,
  type,
  content,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  created_by: 'a',
  updated_by: 'b',
});

let seq = 0;
const item = (change: PromptChange, state: OutboxRecord['state'] = 'pending', error?: string): OutboxRecord => ({
  seq: (seq += 1),
  id: `k${seq}`,
  userKey: 'id:1',
  kind: PROMPT_OUTBOX_KIND,
  payload: { request: { group: 'main', method: 'PUT', url: '/prompts/x/' }, invalidates: [], change },
  createdAt: seq,
  state,
  attempts: 0,
  ...(error ? { error } : {}),
});

describe('prompt cards', () => {
  it('shows one card per type in order, edit-only for types that exist', () => {
    const cards = buildPromptCards([saved('video', 'v')], []);
    expect(cards.map((c) => [c.type, c.exists, c.content])).toEqual([
      ['image', false, undefined],
      ['video', true, 'v'],
      ['moments', false, undefined],
    ]);
  });

  it('overlays queued changes in order: the newest pending one wins', () => {
    const cards = buildPromptCards(
      [saved('image', 'old')],
      [
        item({ action: 'update', type: 'image', content: 'first' }),
        item({ action: 'update', type: 'image', content: 'second' }),
        item({ action: 'create', type: 'moments', content: 'new' }),
        item({ action: 'delete', type: 'video' }),
      ],
    );
    expect(cards[0]).toMatchObject({ content: 'second', exists: true });
    expect(cards[0]?.pending).toHaveLength(2);
    expect(cards[2]).toMatchObject({ content: 'new', exists: true });
    expect(cards[1]).toMatchObject({ exists: false });
  });

  it('keeps refused changes apart, with the server message and the user text', () => {
    const cards = buildPromptCards([saved('image', 'theirs')], [item({ action: 'create', type: 'image', content: 'mine' }, 'refused', 'already exists')]);
    expect(cards[0]).toMatchObject({ content: 'theirs', exists: true, pending: [] });
    expect(cards[0]?.refused).toEqual([expect.objectContaining({ message: 'already exists', change: expect.objectContaining({ content: 'mine' }) })]);
  });

  it('ignores other kinds of outbox items', () => {
    const other = { ...item({ action: 'delete', type: 'image' }), kind: 'history' };
    expect(buildPromptCards([saved('image', 'x')], [other])[0]?.exists).toBe(true);
  });
});

describe('prompt validation', () => {
  it('requires text that is not blank and at most 1000 characters', () => {
    expect(validatePromptContent('')).toBe('prompts.contentRequired');
    expect(validatePromptContent(' \n\t')).toBe('prompts.contentRequired');
    expect(validatePromptContent('a'.repeat(1000))).toBeNull();
    expect(validatePromptContent('a'.repeat(1001))).toBe('prompts.contentTooLong');
  });
});

describe('relative time', () => {
  it('says how long ago data was saved, in the interface language', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(formatRelativeTime(now - 5 * 60_000, now, 'en-US')).toBe('5 minutes ago');
    expect(formatRelativeTime(now - 3 * 3_600_000, now, 'en-US')).toBe('3 hours ago');
    expect(formatRelativeTime(now - 86_400_000, now, 'en-US')).toBe('yesterday');
    expect(formatRelativeTime(now, now, 'en-US')).toBe('now');
    expect(formatRelativeTime(now - 5 * 60_000, now, 'zh-CN')).toBe('5分钟前');
  });
});
