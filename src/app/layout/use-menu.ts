import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useSession } from '../../lib/session/use-session';
import { isActivePath, menuFor, type MenuEntry } from '../navigation/menu-entries';

export interface MenuItem extends MenuEntry {
  label: string;
  shortLabel: string;
  active: boolean;
}

/** The signed-in user's menu, translated, with the entry for the current path marked active. */
export function useMenu(): MenuItem[] {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user } = useSession();
  return menuFor(user?.user_level).map((entry) => ({
    ...entry,
    label: t(entry.labelKey),
    shortLabel: t(entry.shortLabelKey),
    active: isActivePath(entry.path, pathname),
  }));
}
