// Home (spec §2): a greeting, the user's tools as cards, and their recent work from history.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { dateFormat } from '../../../i18n/formats';
import { useSession } from '../../../lib/session/use-session';
import { displayNameOf } from '../../../lib/session/user';
import { greetingKey } from '../model/greeting';
import { toolsFor } from '../model/tool-cards';
import { RecentWork } from './recent-work';
import { ToolIcon } from './tool-icon';
import './home-page.css';

export default function HomePage() {
  const { t, i18n } = useTranslation();
  const { user, username } = useSession();
  const name = user ? displayNameOf(user) : (username ?? '');
  const tools = toolsFor(user?.user_level);
  return (
    <div className="page home">
      <header className="home__hero">
        <p className="home__date">{dateFormat(i18n.resolvedLanguage, { dateStyle: 'full' }).format(new Date())}</p>
        <h1 data-testid="home-greeting">{t(greetingKey(new Date().getHours()), { name })}</h1>
        <p>{user ? t('home.subtitle', { role: t(`roles.${user.user_level}`) }) : t('home.subtitleNoRole')}</p>
      </header>

      <section aria-labelledby="home-tools">
        <h2 id="home-tools" className="home__section-title">
          {t('home.toolsTitle')}
        </h2>
        {tools.length > 0 ? (
          <ul className="home__tools" data-testid="home-tools">
            {tools.map((tool) => (
              <li key={tool.key}>
                <Link to={tool.path} className="tool-card card" data-testid={`tool-${tool.key}`}>
                  <span className={`tool-card__icon tool-card__icon--${tool.key}`}>
                    <ToolIcon tool={tool.key} />
                  </span>
                  <strong>{t(`nav.${tool.key}`)}</strong>
                  <span className="tool-card__text">{t(`home.tools.${tool.key}`)}</span>
                  <span className="tool-card__open">{t('home.open')} →</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="home__muted">{t('home.noTools')}</p>
        )}
      </section>

      <section aria-labelledby="home-recent" className="home__recent">
        <h2 id="home-recent" className="home__section-title">
          {t('home.recentTitle')}
        </h2>
        <RecentWork canSeeHistory={tools.some((tool) => tool.key === 'history')} />
      </section>
    </div>
  );
}
