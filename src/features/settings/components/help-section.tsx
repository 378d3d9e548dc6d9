import { useTranslation } from 'react-i18next';
import { HelpIcon } from '../../../components/icons';
import { SettingsSection } from './settings-section';

const QUESTIONS = ['account', 'roles', 'offline', 'language'] as const;

/** Help center: the questions designers ask most, each one expandable. */
export function HelpSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id="help" icon={<HelpIcon />} title={t('settings.help.title')} description={t('settings.help.description')}>
      <div className="settings-faq">
        {QUESTIONS.map((q) => (
          <details key={q}>
            <summary>{t(`settings.help.questions.${q}.q`)}</summary>
            <p>{t(`settings.help.questions.${q}.a`)}</p>
          </details>
        ))}
      </div>
    </SettingsSection>
  );
}
