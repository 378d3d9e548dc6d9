// Phone header: brand and the user's initial (a shortcut to settings).
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoomLogo } from '../../components/loom-logo';
import { useSession } from '../../lib/session/use-session';
import { displayNameOf } from '../../lib/session/user';

export function TopBar() {
  const { t } = useTranslation();
  const { user, username } = useSession();
  const name = user ? displayNameOf(user) : (username ?? '');
  return (
    <header className="top-bar">
      <Link to="/" className="top-bar__brand">
        <LoomLogo size={30} />
        <strong>{t('app.name')}</strong>
      </Link>
      {name ? (
        <Link to="/settings" className="top-bar__user" aria-label={t('nav.account', { name })}>
          <span className="avatar" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
        </Link>
      ) : null}
    </header>
  );
}
