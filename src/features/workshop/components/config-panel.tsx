// The run's settings: model (what the server offers; the built-in engine named as the local
// preview it is), creativity, precision and output style, each with a plain-language hint.
import { useTranslation } from 'react-i18next';
import type { ConfigDraft } from '../model/workshop-config';
import { OUTPUT_STYLES, type WorkshopModel } from '../model/workshop-item';

interface Props {
  draft: ConfigDraft;
  model: string | null;
  models: readonly WorkshopModel[] | undefined;
  modelsLoading: boolean;
  modelsError: string | null;
  onRetryModels(): void;
  onChange(draft: ConfigDraft): void;
}

export function ConfigPanel({ draft, model, models, modelsLoading, modelsError, onRetryModels, onChange }: Props) {
  const { t } = useTranslation();
  const chosen = models?.find((m) => m.id === model);
  return (
    <section className="ws-card ws-config" aria-labelledby="ws-config-title" data-testid="workshop-config">
      <h2 id="ws-config-title" className="ws-card__title">
        {t('workshop.config.title')}
      </h2>
      <div className="ws-field">
        <label htmlFor="ws-model" className="ws-field__label">
          {t('workshop.config.model')}
        </label>
        {modelsError && !models ? (
          <div className="ws-error" role="alert">
            {modelsError}{' '}
            <button type="button" className="ws-button ws-button--small" onClick={onRetryModels}>
              {t('workshop.retry')}
            </button>
          </div>
        ) : (
          <select
            id="ws-model"
            className="ws-select"
            value={model ?? ''}
            disabled={modelsLoading && !models}
            onChange={(e) => onChange({ ...draft, model: e.target.value })}
            data-testid="workshop-model"
          >
            {!models && <option value="">{t('workshop.config.modelsLoading')}</option>}
            {models?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        )}
        {chosen?.local_preview && (
          <p className="ws-note" data-testid="workshop-local-preview">
            {t('workshop.config.localPreview')}
          </p>
        )}
      </div>
      <div className="ws-field">
        <label htmlFor="ws-creativity" className="ws-field__label">
          {t('workshop.config.creativity')} <output htmlFor="ws-creativity">{draft.creativity}%</output>
        </label>
        <input
          id="ws-creativity"
          type="range"
          min={0}
          max={100}
          step={5}
          value={draft.creativity}
          aria-describedby="ws-creativity-help"
          onChange={(e) => onChange({ ...draft, creativity: Number(e.target.value) })}
          data-testid="workshop-creativity"
        />
        <p id="ws-creativity-help" className="ws-help">
          {t('workshop.config.creativityHelp')}
        </p>
      </div>
      <div className="ws-field">
        <label htmlFor="ws-precision" className="ws-field__label">
          {t('workshop.config.precision')} <output htmlFor="ws-precision">{draft.precision}%</output>
        </label>
        <input
          id="ws-precision"
          type="range"
          min={0}
          max={100}
          step={5}
          value={draft.precision}
          aria-describedby="ws-precision-help"
          onChange={(e) => onChange({ ...draft, precision: Number(e.target.value) })}
          data-testid="workshop-precision"
        />
        <p id="ws-precision-help" className="ws-help">
          {t('workshop.config.precisionHelp')}
        </p>
      </div>
      <fieldset className="ws-field ws-styles" data-testid="workshop-style" aria-describedby="ws-style-help">
        <legend className="ws-field__label">{t('workshop.config.style')}</legend>
        <div className="ws-styles__grid">
          {OUTPUT_STYLES.map((style) => (
            <label key={style} className={`ws-style${draft.style === style ? ' ws-style--on' : ''}`}>
              <input
                type="radio"
                name="ws-style"
                value={style}
                checked={draft.style === style}
                onChange={() => onChange({ ...draft, style })}
              />
              {t(`workshop.styles.${style}`)}
            </label>
          ))}
        </div>
        <p id="ws-style-help" className="ws-help">
          {t(`workshop.config.styleHelp.${draft.style}`)}
        </p>
      </fieldset>
    </section>
  );
}
