// Settings rows for the videos kept on this device: how much space they take against the budget,
// the budget, "keep the newest N by themselves", and removing them all.
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { formatBytes } from '../../../components/offline/offline-settings';
import {
  BUDGET_CHOICES_MB,
  LATEST_CHOICES,
  budgetBytes,
  removeVideoFromDevice,
  saveKeptVideoSettings,
  useKeptVideos,
} from '../../../lib/offline/use-kept-videos';

export function KeptVideosSettings() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'zh-CN';
  const { settings, videos, bytes } = useKeptVideos();
  const budget = budgetBytes(settings);

  async function clear() {
    for (const video of videos) await removeVideoFromDevice(video.key);
    toast.success(t('settings.keptVideos.cleared'));
  }

  return (
    <div className="offline-settings" data-testid="kept-videos-settings">
      <div className="offline-settings__row">
        <div>
          <strong>{t('settings.keptVideos.title')}</strong>
          <p>{t('settings.keptVideos.hint')}</p>
          <p data-testid="kept-videos-usage" data-bytes={bytes} data-count={videos.length}>
            {t('settings.keptVideos.usage', { count: videos.length, used: formatBytes(bytes, language), budget: formatBytes(budget, language) })}
          </p>
          <progress className="offline-settings__meter" max={budget} value={Math.min(bytes, budget)} aria-label={t('settings.keptVideos.title')} />
        </div>
        {videos.length > 0 ? (
          <button type="button" className="btn btn--ghost" onClick={() => void clear()} data-testid="kept-videos-clear">
            {t('settings.keptVideos.clear')}
          </button>
        ) : null}
      </div>
      <ChoiceRow
        name="kept-videos-budget"
        label={t('settings.keptVideos.budget')}
        value={settings.budgetMb}
        choices={BUDGET_CHOICES_MB}
        describe={(mb) => formatBytes(mb * 1024 * 1024, language)}
        onChange={(budgetMb) => void saveKeptVideoSettings({ ...settings, budgetMb })}
      />
      <ChoiceRow
        name="kept-videos-latest"
        label={t('settings.keptVideos.latest')}
        value={settings.latest}
        choices={LATEST_CHOICES}
        describe={(n) => (n === 0 ? t('settings.keptVideos.latestOff') : t('settings.keptVideos.latestN', { count: n }))}
        onChange={(latest) => void saveKeptVideoSettings({ ...settings, latest })}
      />
    </div>
  );
}

/** A labelled row choosing one number of a list; `name` is the select's id and test id. */
function ChoiceRow(props: {
  name: string;
  label: string;
  value: number;
  choices: readonly number[];
  describe: (choice: number) => string;
  onChange: (choice: number) => void;
}) {
  return (
    <div className="offline-settings__row">
      <label htmlFor={props.name}>
        <strong>{props.label}</strong>
      </label>
      <select
        id={props.name}
        className="input offline-settings__select"
        value={props.value}
        data-testid={props.name}
        onChange={(e) => props.onChange(Number(e.target.value))}
      >
        {props.choices.map((choice) => (
          <option key={choice} value={choice}>
            {props.describe(choice)}
          </option>
        ))}
      </select>
    </div>
  );
}
