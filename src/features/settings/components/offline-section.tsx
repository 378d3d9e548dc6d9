import { useTranslation } from 'react-i18next';
import { MonitorIcon } from '../../../components/icons';
import { OfflineSettings } from '../../../components/offline/offline-settings';
import { KeptVideosSettings } from './kept-videos-settings';
import { SettingsSection } from './settings-section';

/** Install the app, keep data for offline use, storage used (issue: offline core). */
export function OfflineSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id="offline" icon={<MonitorIcon />} title={t('offline.settingsTitle')}>
      <OfflineSettings />
      <KeptVideosSettings />
    </SettingsSection>
  );
}
