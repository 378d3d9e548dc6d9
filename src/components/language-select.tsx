// Interface language picker; the switch is live (no reload) and remembered.
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n/i18n';
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, isLanguage } from '../i18n/languages';
import { GlobeIcon } from './icons';
import './language-select.css';

interface Props {
  id?: string;
  compact?: boolean;
  testId?: string;
}

export function LanguageSelect({ id, compact, testId }: Props) {
  const { t, i18n } = useTranslation();
  const value = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'zh-CN';
  const select = (
    <select
      id={id}
      className={compact ? 'language-select__control' : 'input'}
      value={value}
      aria-label={compact ? t('settings.language.title') : undefined}
      data-testid={testId}
      onChange={(event) => {
        if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
      }}
    >
      {SUPPORTED_LANGUAGES.map((language) => (
        <option key={language} value={language} lang={language}>
          {LANGUAGE_NAMES[language]}
        </option>
      ))}
    </select>
  );
  if (!compact) return select;
  return (
    <span className="language-select">
      <GlobeIcon size={18} />
      {select}
    </span>
  );
}
