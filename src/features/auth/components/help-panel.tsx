// "How do I get an account?" — a collapsible panel with three numbered, illustrated steps, a tip
// and the forgot-password line (spec §2). <details> gives keyboard and screen-reader behaviour.
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, HelpIcon } from '../../../components/icons';
import { StepOpenChat, StepReceiveCredentials, StepSendKeyword } from './help-illustrations';

const STEPS = [
  { key: 'step1', Picture: StepOpenChat },
  { key: 'step2', Picture: StepSendKeyword },
  { key: 'step3', Picture: StepReceiveCredentials },
] as const;

export function HelpPanel() {
  const { t } = useTranslation();
  return (
    <details className="help-panel" data-testid="help-panel">
      <summary>
        <HelpIcon size={18} />
        <span>{t('auth.help.title')}</span>
        <ChevronDownIcon size={18} className="help-panel__chevron" />
      </summary>
      <ol className="help-panel__steps">
        {STEPS.map(({ key, Picture }, index) => (
          <li key={key}>
            <div className="help-panel__picture">
              <Picture />
            </div>
            <div>
              <span className="help-panel__number" aria-hidden="true">
                {index + 1}
              </span>
              <strong>{t(`auth.help.${key}.title`)}</strong>
              <p>{t(`auth.help.${key}.body`)}</p>
            </div>
          </li>
        ))}
      </ol>
      <p className="help-panel__tip">{t('auth.help.tip')}</p>
      <p className="help-panel__forgot">{t('auth.help.forgot')}</p>
    </details>
  );
}
