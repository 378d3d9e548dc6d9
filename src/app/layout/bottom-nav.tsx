// Phone navigation: a bottom tab bar with thumb-sized targets. More than five entries do not fit
// legibly, so the first four stay and the rest open from "More" in a bottom sheet.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { MoreIcon } from '../../components/icons';
import { MenuIcon } from '../navigation/menu-icon';
import type { MenuItem } from './use-menu';

const MAX_TABS = 5;

export function BottomNav({ items }: { items: MenuItem[] }) {
  const { t } = useTranslation();
  const [sheetOpen, setSheetOpen] = useState(false);
  const sheet = useRef<HTMLDialogElement>(null);
  const { pathname } = useLocation();
  const overflow = items.length > MAX_TABS;
  const tabs = overflow ? items.slice(0, MAX_TABS - 1) : items;
  const rest = overflow ? items.slice(MAX_TABS - 1) : [];
  const moreActive = rest.some((item) => item.active);

  useEffect(() => {
    const dialog = sheet.current;
    if (!dialog) return;
    if (sheetOpen && !dialog.open) dialog.showModal();
    if (!sheetOpen && dialog.open) dialog.close();
  }, [sheetOpen]);

  // Choosing a page closes the sheet.
  useEffect(() => setSheetOpen(false), [pathname]);

  return (
    <nav className="bottom-nav" aria-label={t('nav.label')} data-testid="bottom-nav">
      <ul style={{ ['--tabs' as string]: tabs.length + (overflow ? 1 : 0) }}>
        {tabs.map((item) => (
          <li key={item.path}>
            <Link
              to={item.path}
              className={`bottom-nav__tab${item.active ? ' is-active' : ''}`}
              aria-current={item.active ? 'page' : undefined}
              title={item.label}
            >
              <MenuIcon name={item.icon} size={22} />
              <span>{item.shortLabel}</span>
            </Link>
          </li>
        ))}
        {overflow ? (
          <li>
            <button
              type="button"
              className={`bottom-nav__tab${moreActive ? ' is-active' : ''}`}
              aria-haspopup="dialog"
              aria-expanded={sheetOpen}
              onClick={() => setSheetOpen(true)}
            >
              <MoreIcon size={22} />
              <span>{t('nav.more')}</span>
            </button>
          </li>
        ) : null}
      </ul>
      {overflow ? (
        <dialog
          ref={sheet}
          className="nav-sheet"
          aria-label={t('nav.more')}
          onCancel={(event) => {
            event.preventDefault();
            setSheetOpen(false);
          }}
          onClick={(event) => {
            if (event.target === sheet.current) setSheetOpen(false);
          }}
        >
          <div className="nav-sheet__handle" aria-hidden="true" />
          <ul>
            {rest.map((item) => (
              <li key={item.path}>
                <Link to={item.path} className={`nav-sheet__link${item.active ? ' is-active' : ''}`} aria-current={item.active ? 'page' : undefined}>
                  <MenuIcon name={item.icon} size={22} />
                  <span>{item.label}</span>
                </Link>
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn--ghost btn--block" onClick={() => setSheetOpen(false)}>
            {t('common.close')}
          </button>
        </dialog>
      ) : null}
    </nav>
  );
}
