import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field';
import { GlobeIcon } from '../../../components/icons';
import { LanguageSelect } from '../../../components/language-select';
import { SettingsSection } from './settings-section';

export function LanguageSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id="language" icon={<GlobeIcon />} title={t('settings.language.title')} description={t('settings.language.description')}>
      <div className="settings-narrow">
        <FormField label={t('settings.language.label')}>{(control) => <LanguageSelect id={control.id} testId="language-select" />}</FormField>
      </div>
    </SettingsSection>
  );
}
