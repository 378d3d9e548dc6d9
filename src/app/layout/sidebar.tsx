// The left sidebar on large screens (spec §2); on tablets the same list becomes a compact rail.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoomLogo } from '../../components/loom-logo';
import { useSession } from '../../lib/session/use-session';
import { displayNameOf } from '../../lib/session/user';
import { MenuIcon } from '../navigation/menu-icon';
import type { MenuItem } from './use-menu';

export function Sidebar({ items }: { items: MenuItem[] }) {
  const { t } = useTranslation();
  const { user, username } = useSession();
  const name = user ? displayNameOf(user) : (username ?? '');
  return (
    <aside className="sidebar">
      <Link to="/" className="sidebar__brand" aria-label={t('app.name')}>
        <LoomLogo size={36} />
        <span className="sidebar__brand-text">
          <strong>{t('app.name')}</strong>
        </span>
      </Link>
      <nav className="sidebar__nav" aria-label={t('nav.label')} data-testid="sidebar">
        <ul>
          {items.map((item) => (
            <li key={item.path}>
              <Link
                to={item.path}
                className={`sidebar__link${item.active ? ' is-active' : ''}`}
                aria-current={item.active ? 'page' : undefined}
                data-testid={`nav-${item.icon}`}
                title={item.label}
              >
                <MenuIcon name={item.icon} size={22} />
                <span className="sidebar__label">{item.label}</span>
                <span className="sidebar__label-short">{item.shortLabel}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {name ? (
        // Named by its content, not aria-label: a label that differs from the shown text defeats speech control.
        <Link to="/settings" className="sidebar__user">
          <span className="visually-hidden">{t('nav.account', { name })}</span>
          <span className="avatar" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
          <span className="sidebar__user-text">
            <strong>{name}</strong>
            {user ? <small>{t(`roles.${user.user_level}`)}</small> : null}
          </span>
        </Link>
      ) : null}
    </aside>
  );
}
