// Theme preference: light, dark or follow the system (spec §2 settings). /theme-init.js applies
// the saved choice before the first paint; this module keeps it in sync afterwards.
import { STORAGE_KEYS } from '../../../lib/session/storage-keys';

export type ThemePreference = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];

export function parseThemePreference(value: string | null): ThemePreference {
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): ResolvedTheme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

const listeners = new Set<() => void>();
const darkQuery = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null);

export function readThemePreference(): ThemePreference {
  return parseThemePreference(localStorage.getItem(STORAGE_KEYS.theme));
}

export function currentResolvedTheme(): ResolvedTheme {
  return document.documentElement.getAttribute('data-theme') === 'dark' ? 'dark' : 'light';
}

function apply(preference: ThemePreference): void {
  const theme = resolveTheme(preference, darkQuery()?.matches ?? false);
  const root = document.documentElement;
  root.setAttribute('data-theme', theme);
  root.setAttribute('data-theme-preference', preference);
  root.style.colorScheme = theme;
  for (const listener of listeners) listener();
}

export function setThemePreference(preference: ThemePreference): void {
  if (preference === 'system') localStorage.removeItem(STORAGE_KEYS.theme);
  else localStorage.setItem(STORAGE_KEYS.theme, preference);
  apply(preference);
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Follows the operating system's light/dark switch while the preference is "system". */
export function startThemeSync(): void {
  apply(readThemePreference());
  darkQuery()?.addEventListener('change', () => {
    if (readThemePreference() === 'system') apply('system');
  });
}
