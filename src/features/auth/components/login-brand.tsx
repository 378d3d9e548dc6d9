// The sign-in screen's brand side: name, tagline and what the workspace does. Its styles
// (login-brand.css) are in the entry's stylesheet, and the build renders it into index.html too
// (scripts/vite-sign-in-brand.ts): a visitor sees it before the scripts arrive.
import { useTranslation } from 'react-i18next';
import { ImageIcon, SparklesIcon, VideoIcon } from '../../../components/icons';
import { LoomLogo } from '../../../components/loom-logo';

export function LoginBrand() {
  const { t } = useTranslation();
  return (
    <section className="login-brand" aria-labelledby="login-brand-name">
      <div className="login-brand__weave" aria-hidden="true" />
      <div className="login-brand__content">
        <div className="login-brand__mark">
          <LoomLogo size={48} />
          <span id="login-brand-name">{t('app.name')}</span>
        </div>
        <p className="login-brand__tagline">{t('auth.tagline')}</p>
        <ul className="login-brand__features">
          <li>
            <ImageIcon size={20} />
            {t('auth.features.upscale')}
          </li>
          <li>
            <VideoIcon size={20} />
            {t('auth.features.video')}
          </li>
          <li>
            <SparklesIcon size={20} />
            {t('auth.features.workshop')}
          </li>
        </ul>
      </div>
    </section>
  );
}
