// The sidebar's entries and who sees them (spec §2 main layout, §6 roles). Without a known user
// only home and settings show.
import type { UserLevel } from '../../lib/session/user';

export type MenuIconName = 'home' | 'image' | 'video' | 'collection' | 'sparkles' | 'prompt' | 'history' | 'settings';

export interface MenuEntry {
  path: string;
  labelKey: string;
  /** A one-word label for the touch rail and the bottom tabs. */
  shortLabelKey: string;
  icon: MenuIconName;
  /** undefined: everyone, even before the profile is known. */
  roles?: readonly UserLevel[];
}

export const MENU_ENTRIES: readonly MenuEntry[] = [
  { path: '/', labelKey: 'nav.home', shortLabelKey: 'nav.short.home', icon: 'home' },
  { path: '/image-processing', labelKey: 'nav.imageProcessing', shortLabelKey: 'nav.short.imageProcessing', icon: 'image', roles: ['ADMIN', 'DESIGNER'] },
  { path: '/video-generation', labelKey: 'nav.videoGeneration', shortLabelKey: 'nav.short.videoGeneration', icon: 'video', roles: ['ADMIN', 'GENERAL'] },
  { path: '/collections', labelKey: 'nav.collections', shortLabelKey: 'nav.short.collections', icon: 'collection', roles: ['ADMIN', 'GENERAL'] },
  { path: '/gemini-banana', labelKey: 'nav.geminiBanana', shortLabelKey: 'nav.short.geminiBanana', icon: 'sparkles', roles: ['ADMIN'] },
  { path: '/prompt-management', labelKey: 'nav.promptManagement', shortLabelKey: 'nav.short.promptManagement', icon: 'prompt', roles: ['ADMIN'] },
  { path: '/history', labelKey: 'nav.history', shortLabelKey: 'nav.short.history', icon: 'history', roles: ['ADMIN', 'GENERAL'] },
  { path: '/settings', labelKey: 'nav.settings', shortLabelKey: 'nav.short.settings', icon: 'settings' },
];

export function menuFor(level: UserLevel | null | undefined): MenuEntry[] {
  return MENU_ENTRIES.filter((entry) => !entry.roles || (level ? entry.roles.includes(level) : false));
}

/** Entries match exact paths (spec §2); a trailing slash is the same path. */
export function isActivePath(entryPath: string, currentPath: string): boolean {
  const normalise = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  return normalise(entryPath) === normalise(currentPath);
}

/** Whether a path belongs to an entry this role cannot see (used to send them home); a page under an entry (`/collections/12`) is that entry's. */
export function isPathHiddenFor(path: string, level: UserLevel): boolean {
  const entry = MENU_ENTRIES.find((e) => isActivePath(e.path, path) || (e.path !== '/' && path.startsWith(`${e.path}/`)));
  return !!entry?.roles && !entry.roles.includes(level);
}
