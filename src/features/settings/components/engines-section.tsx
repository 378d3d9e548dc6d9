import { useTranslation } from 'react-i18next';
import { SparklesIcon } from '../../../components/icons';
import { ENGINE_CAPABILITIES, useGenerationEngines } from '../api/generation-engines';
import { SettingsSection } from './settings-section';

const KNOWN_PROVIDERS = ['local', 'gemini', 'openai', 'minimax', 'kling', 'comfyui'];

/** Which engine makes each part of the work; a self-hosted ComfyUI's missing node types and models, named. */
export function EnginesSection() {
  const { t } = useTranslation();
  const { data } = useGenerationEngines();
  if (!data) return null;
  const name = (provider: string) => (KNOWN_PROVIDERS.includes(provider) ? t(`settings.engines.provider.${provider}`) : provider);
  return (
    <SettingsSection id="engines" icon={<SparklesIcon />} title={t('settings.engines.title')} description={t('settings.engines.description')}>
      <dl className="settings-profile">
        {ENGINE_CAPABILITIES.map((capability) => {
          const slot = data.capabilities[capability];
          return slot ? (
            <div key={capability}>
              <dt>{t(`settings.engines.capability.${capability}`)}</dt>
              <dd data-testid={`engine-${capability}`}>{name(slot.provider)}</dd>
            </div>
          ) : null;
        })}
      </dl>
      {data.checks.map((check) =>
        check.problems.length === 0 ? (
          <p key={check.provider} className="settings-about" data-testid={`engine-check-${check.provider}`}>
            {t('settings.engines.checkOk', { provider: name(check.provider) })}
          </p>
        ) : (
          <div key={check.provider} role="alert" data-testid={`engine-check-${check.provider}`}>
            <p className="settings-about">
              {t(check.reachable ? 'settings.engines.checkProblems' : 'settings.engines.unreachable', { provider: name(check.provider) })}
            </p>
            <ul>
              {check.problems.map((problem) => (
                <li key={problem}>
                  <code>{problem}</code>
                </li>
              ))}
            </ul>
          </div>
        ),
      )}
    </SettingsSection>
  );
}
