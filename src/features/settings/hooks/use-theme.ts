import { useSyncExternalStore } from 'react';
import { currentResolvedTheme, readThemePreference, setThemePreference, subscribeTheme } from '../model/theme';

/** The theme preference and what it resolves to now; re-renders when either changes. */
export function useTheme() {
  const preference = useSyncExternalStore(subscribeTheme, readThemePreference, readThemePreference);
  const resolved = useSyncExternalStore(subscribeTheme, currentResolvedTheme, currentResolvedTheme);
  return { preference, resolved, setPreference: setThemePreference };
}
