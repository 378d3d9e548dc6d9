import { describe, expect, it } from 'vitest';
import { isActivePath, isPathHiddenFor, menuFor } from '../../../src/app/navigation/menu-entries';
import { toolsFor } from '../../../src/features/home/model/tool-cards';

const paths = (level: Parameters<typeof menuFor>[0]) => menuFor(level).map((e) => e.path);

describe('role → menu (spec §2, §6)', () => {
  it('ADMIN sees every entry', () => {
    expect(paths('ADMIN')).toEqual(['/', '/image-processing', '/video-generation', '/collections', '/gemini-banana', '/prompt-management', '/history', '/settings']);
  });

  it('DESIGNER sees home, image processing and settings', () => {
    expect(paths('DESIGNER')).toEqual(['/', '/image-processing', '/settings']);
  });

  it('GENERAL sees home, video generation, collections, history and settings', () => {
    expect(paths('GENERAL')).toEqual(['/', '/video-generation', '/collections', '/history', '/settings']);
  });

  it('without a known user only home and settings', () => {
    expect(paths(null)).toEqual(['/', '/settings']);
    expect(paths(undefined)).toEqual(['/', '/settings']);
  });

  it('home cards are the menu without home and settings', () => {
    for (const level of ['ADMIN', 'DESIGNER', 'GENERAL'] as const) {
      expect(toolsFor(level).map((tool) => tool.path)).toEqual(paths(level).filter((p) => p !== '/' && p !== '/settings'));
    }
    expect(toolsFor(null)).toEqual([]);
  });
});

describe('active entry', () => {
  it('matches exact paths only', () => {
    expect(isActivePath('/', '/')).toBe(true);
    expect(isActivePath('/', '/settings')).toBe(false);
    expect(isActivePath('/history', '/history/')).toBe(true);
    expect(isActivePath('/history', '/history/42')).toBe(false);
  });

  it('knows which paths a role has no entry for', () => {
    expect(isPathHiddenFor('/history', 'DESIGNER')).toBe(true);
    expect(isPathHiddenFor('/image-processing', 'DESIGNER')).toBe(false);
    expect(isPathHiddenFor('/settings', 'GENERAL')).toBe(false);
    expect(isPathHiddenFor('/gemini-banana', 'GENERAL')).toBe(true);
    // A page under an entry is the entry's: one collection is hidden where the list is.
    expect(isPathHiddenFor('/collections/12', 'DESIGNER')).toBe(true);
    expect(isPathHiddenFor('/collections/12', 'GENERAL')).toBe(false);
  });
});
