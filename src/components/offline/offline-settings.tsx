// Settings rows for "Offline and storage": install the app, keep data for offline use (persistent
// storage, asked from this click), usage against quota, and notices when media was evicted.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { numberFormat } from '../../i18n/formats';
import { requestPersistentStorage, storageFigures, type StorageFigures } from '../../lib/db/quota';
import { promptInstall, useInstallState } from '../../lib/offline/install-prompt';
import './offline.css';

export function formatBytes(bytes: number, language: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return numberFormat(language, { style: 'unit', unit: units[unit], maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}

export function OfflineSettings() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'zh-CN';
  const install = useInstallState();
  const [figures, setFigures] = useState<StorageFigures | null>(null);
  const refresh = useCallback(() => void storageFigures().then(setFigures), []);
  useEffect(refresh, [refresh]);

  return (
    <div className="offline-settings" data-testid="offline-settings">

      <div className="offline-settings__row">
        <div>
          <strong>{t('install.title')}</strong>
          <p>{install.installed ? t('install.installed') : install.iosHint ? t('install.iosHint') : install.canPrompt ? t('install.hint') : t('install.unavailable')}</p>
        </div>
        {install.canPrompt ? (
          <button
            type="button"
            className="btn btn--primary"
            data-testid="install-app"
            onClick={() => void promptInstall().then((outcome) => outcome === 'accepted' && toast.success(t('install.done')))}
          >
            {t('install.action')}
          </button>
        ) : null}
      </div>

      <div className="offline-settings__row">
        <div>
          <strong>{t('storage.keepTitle')}</strong>
          <p>{figures?.persisted ? t('storage.kept') : t('storage.keepHint')}</p>
        </div>
        {figures && !figures.persisted ? (
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() =>
              void requestPersistentStorage().then((granted) => {
                if (granted) toast.success(t('storage.keptNow'));
                else toast.info(t('storage.denied'));
                refresh();
              })
            }
          >
            {t('storage.keepAction')}
          </button>
        ) : null}
      </div>

      <div className="offline-settings__row">
        <div>
          <strong>{t('storage.usageTitle')}</strong>
          <p data-testid="storage-usage">
            {figures ? t('storage.usage', { used: formatBytes(figures.usage, language), quota: formatBytes(figures.quota, language) }) : t('storage.unknown')}
          </p>
          {figures && figures.quota > 0 ? (
            <progress className="offline-settings__meter" max={figures.quota} value={figures.usage} aria-label={t('storage.usageTitle')} />
          ) : null}
        </div>
      </div>
    </div>
  );
}
