// Settings rows for the videos kept on this device (issue 25): how much space they take against the
// budget, the budget, "keep the newest N by themselves", and removing them all.
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
      <div className="offline-settings__row">
        <label htmlFor="kept-videos-budget">
          <strong>{t('settings.keptVideos.budget')}</strong>
        </label>
        <select
          id="kept-videos-budget"
          className="input offline-settings__select"
          value={settings.budgetMb}
          data-testid="kept-videos-budget"
          onChange={(e) => void saveKeptVideoSettings({ ...settings, budgetMb: Number(e.target.value) })}
        >
          {BUDGET_CHOICES_MB.map((mb) => (
            <option key={mb} value={mb}>
              {formatBytes(mb * 1024 * 1024, language)}
            </option>
          ))}
        </select>
      </div>
      <div className="offline-settings__row">
        <label htmlFor="kept-videos-latest">
          <strong>{t('settings.keptVideos.latest')}</strong>
        </label>
        <select
          id="kept-videos-latest"
          className="input offline-settings__select"
          value={settings.latest}
          data-testid="kept-videos-latest"
          onChange={(e) => void saveKeptVideoSettings({ ...settings, latest: Number(e.target.value) })}
        >
          {LATEST_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n === 0 ? t('settings.keptVideos.latestOff') : t('settings.keptVideos.latestN', { count: n })}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
