// Settings (spec §2): personal info, security, theme, notifications, language, help center,
// contact us, the generation engines, about, and logout.
import { useTranslation } from 'react-i18next';
import { AboutSection } from './about-section';
import { AppearanceSection } from './appearance-section';
import { ContactSection } from './contact-section';
import { EnginesSection } from './engines-section';
import { HelpSection } from './help-section';
import { LanguageSection } from './language-section';
import { LogoutButton } from './logout-button';
import { NotificationsSection } from './notifications-section';
import { OfflineSection } from './offline-section';
import { ProfileSection } from './profile-section';
import { SecuritySection } from './security-section';
import './settings-page.css';

export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <div className="page settings">
      <header className="page__header">
        <h1>{t('nav.settings')}</h1>
        <p>{t('settings.subtitle')}</p>
      </header>
      <div className="settings__grid">
        <ProfileSection />
        <SecuritySection />
        <AppearanceSection />
        <NotificationsSection />
        <LanguageSection />
        <OfflineSection />
        <HelpSection />
        <ContactSection />
        <EnginesSection />
        <AboutSection />
      </div>
      <div className="settings__footer">
        <LogoutButton />
      </div>
    </div>
  );
}
