// The model list of spec §5 in its order: a scale switch (2x, 4x, other) over the variants of that
// scale, recommended ones marked with their reason. Compact enough that a tablet still sees the
// batch below. A failed fetch says why and offers a retry; the last good list stays usable.
import { useTranslation } from 'react-i18next';
import { SegmentedControl } from '../../../components/segmented-control';
import type { ModelCategory, UpscaleModel } from '../model/model-catalog';
import type { UpscaleModels } from '../hooks/use-upscale-models';
import './model-picker.css';

interface Props {
  catalog: UpscaleModels;
  selected: UpscaleModel | undefined;
  onSelect(model: UpscaleModel): void;
  disabled?: boolean;
}

export function ModelPicker({ catalog, selected, onSelect, disabled }: Props) {
  const { t } = useTranslation();
  const { models, loading, errorKey, retry, retrying } = catalog;
  const categories = [...new Set(models.map((m) => m.category))];
  const category = selected?.category ?? categories[0];
  const shown = models.filter((m) => m.category === category);

  // Switching scale keeps the variant when that scale has it.
  const switchTo = (next: ModelCategory) => {
    const inNext = models.filter((m) => m.category === next);
    const same = inNext.find((m) => m.variant === selected?.variant);
    const pick = same ?? inNext.find((m) => m.recommended) ?? inNext[0];
    if (pick) onSelect(pick);
  };

  return (
    <fieldset className="model-picker" disabled={disabled} data-testid="model-picker">
      <legend className="ip-section-title">{t('imageProcessing.models.title')}</legend>
      {errorKey && (
        <div className="model-picker__error" role="alert" data-testid="model-error">
          <span>
            {t(`imageProcessing.models.${errorKey}`)}
            {models.length > 0 && ` — ${t('imageProcessing.models.cached')}`}
          </span>
          <button type="button" className="ip-button" onClick={retry} disabled={retrying} data-testid="model-retry">
            {t('imageProcessing.models.retry')}
          </button>
        </div>
      )}
      {loading && <p className="model-picker__note">{t('imageProcessing.models.loading')}</p>}
      {!loading && !errorKey && models.length === 0 && <p className="model-picker__note">{t('imageProcessing.models.empty')}</p>}
      {categories.length > 1 && category && (
        <SegmentedControl
          label={t('imageProcessing.models.title')}
          options={categories.map((c) => ({
            value: c,
            label: c === 'other' ? `${t('imageProcessing.models.category.other')} (${[...new Set(models.filter((m) => m.category === c).map((m) => `${m.scale}x`))].join(', ')})` : t(`imageProcessing.models.category.${c}`),
          }))}
          value={category}
          onChange={switchTo}
          disabled={disabled}
          size="sm"
          testId="model-category"
        />
      )}
      <div className="model-picker__grid" role="radiogroup" aria-label={t('imageProcessing.models.title')}>
        {shown.map((m) => (
          <label key={m.name} className={`model-card${selected?.name === m.name ? ' model-card--on' : ''}`} data-testid={`model-${m.name}`}>
            <input type="radio" name="upscale-model" value={m.name} checked={selected?.name === m.name} onChange={() => onSelect(m)} />
            <span className="model-card__name">
              {m.displayName}
              {m.recommended && <span className="model-card__badge">{t('imageProcessing.models.recommended')}</span>}
            </span>
            {m.description && <span className="model-card__desc">{m.description}</span>}
            {m.recommendReason && <span className="model-card__reason">{m.recommendReason}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
