import { useTranslation } from 'react-i18next';
import { MailIcon } from '../../../components/icons';
import { SettingsSection } from './settings-section';

export function ContactSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id="contact" icon={<MailIcon />} title={t('settings.contact.title')}>
      <ul className="settings-list">
        <li>{t('settings.contact.bot')}</li>
        <li>{t('settings.contact.admin')}</li>
        <li>{t('settings.contact.hours')}</li>
      </ul>
    </SettingsSection>
  );
}
