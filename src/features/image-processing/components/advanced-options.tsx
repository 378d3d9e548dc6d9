// tile_mode, cache_mode and alpha behind a disclosure, each with a plain-language explanation.
import { useTranslation } from 'react-i18next';
import {
  ALPHA_RANGE,
  CACHE_MODES,
  DEFAULT_SETTINGS,
  TILE_MODES,
  WHERE_OPTIONS,
  type UpscaleSettings,
  type UpscaleWhere,
} from '../model/upscale-settings';

interface Props {
  settings: UpscaleSettings;
  onChange(patch: Partial<UpscaleSettings>): void;
  disabled?: boolean;
}

export function AdvancedOptions({ settings, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const changed =
    settings.tileMode !== DEFAULT_SETTINGS.tileMode ||
    settings.cacheMode !== DEFAULT_SETTINGS.cacheMode ||
    settings.alpha !== DEFAULT_SETTINGS.alpha ||
    settings.where !== DEFAULT_SETTINGS.where;
  return (
    <details className="ip-advanced" data-testid="advanced-options">
      <summary>
        {t('imageProcessing.advanced.title')}
        {changed && <span className="ip-advanced__changed">{t('imageProcessing.advanced.changed')}</span>}
      </summary>
      <fieldset disabled={disabled}>
        <label className="ip-field">
          <span className="ip-field__label">{t('imageProcessing.advanced.where')}</span>
          <select
            value={settings.where}
            onChange={(e) => onChange({ where: e.currentTarget.value as UpscaleWhere })}
            data-testid="upscale-where"
          >
            {WHERE_OPTIONS.map((v) => (
              <option key={v} value={v}>
                {t(`imageProcessing.advanced.whereOption.${v}`)}
              </option>
            ))}
          </select>
          <span className="ip-field__help">{t('imageProcessing.advanced.whereHelp')}</span>
        </label>
        <label className="ip-field">
          <span className="ip-field__label">{t('imageProcessing.advanced.tileMode')}</span>
          <select value={settings.tileMode} onChange={(e) => onChange({ tileMode: Number(e.currentTarget.value) })} data-testid="tile-mode">
            {TILE_MODES.map((v) => (
              <option key={v} value={v}>
                {t(`imageProcessing.advanced.tileOption.${v}`)}
              </option>
            ))}
          </select>
          <span className="ip-field__help">{t('imageProcessing.advanced.tileModeHelp')}</span>
        </label>
        <label className="ip-field">
          <span className="ip-field__label">{t('imageProcessing.advanced.cacheMode')}</span>
          <select value={settings.cacheMode} onChange={(e) => onChange({ cacheMode: Number(e.currentTarget.value) })} data-testid="cache-mode">
            {CACHE_MODES.map((v) => (
              <option key={v} value={v}>
                {t(`imageProcessing.advanced.cacheOption.${v}`)}
              </option>
            ))}
          </select>
          <span className="ip-field__help">{t('imageProcessing.advanced.cacheModeHelp')}</span>
        </label>
        <label className="ip-field">
          <span className="ip-field__label">
            {t('imageProcessing.advanced.alpha')} <output>{settings.alpha.toFixed(2)}</output>
          </span>
          <input
            type="range"
            min={ALPHA_RANGE.min}
            max={ALPHA_RANGE.max}
            step={ALPHA_RANGE.step}
            value={settings.alpha}
            onChange={(e) => onChange({ alpha: Number(e.currentTarget.value) })}
            data-testid="alpha"
          />
          <span className="ip-field__help">{t('imageProcessing.advanced.alphaHelp')}</span>
        </label>
        <button
          type="button"
          className="ip-button ip-button--ghost"
          onClick={() =>
            onChange({
              tileMode: DEFAULT_SETTINGS.tileMode,
              cacheMode: DEFAULT_SETTINGS.cacheMode,
              alpha: DEFAULT_SETTINGS.alpha,
              where: DEFAULT_SETTINGS.where,
            })
          }
        >
          {t('imageProcessing.advanced.reset')}
        </button>
      </fieldset>
    </details>
  );
}
