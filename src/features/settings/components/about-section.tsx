import { useTranslation } from 'react-i18next';
import { InfoIcon } from '../../../components/icons';
import { SettingsSection } from './settings-section';

/** The version label is fixed at 1.0.0 (spec §9). */
export const APP_VERSION_LABEL = '1.0.0';

export function AboutSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id="about" icon={<InfoIcon />} title={t('settings.about.title')}>
      <p className="settings-about">{t('settings.about.body')}</p>
      <dl className="settings-profile">
        <div>
          <dt>{t('settings.about.version')}</dt>
          <dd data-testid="app-version">{APP_VERSION_LABEL}</dd>
        </div>
      </dl>
    </SettingsSection>
  );
}
