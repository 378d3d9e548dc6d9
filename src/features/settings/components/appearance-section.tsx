import { useTranslation } from 'react-i18next';
import { MonitorIcon, MoonIcon, PaletteIcon, SunIcon } from '../../../components/icons';
import { SegmentedControl } from '../../../components/segmented-control';
import { useTheme } from '../hooks/use-theme';
import { SettingsSection } from './settings-section';

/** Theme: light, dark or follow the system; applies at once and on the next start before paint. */
export function AppearanceSection() {
  const { t } = useTranslation();
  const { preference, setPreference } = useTheme();
  return (
    <SettingsSection id="theme" icon={<PaletteIcon />} title={t('settings.theme.title')} description={t('settings.theme.description')}>
      <SegmentedControl
        label={t('settings.theme.title')}
        value={preference}
        onChange={setPreference}
        testId="theme-switch"
        options={[
          { value: 'light', label: t('settings.theme.light'), icon: <SunIcon size={16} /> },
          { value: 'dark', label: t('settings.theme.dark'), icon: <MoonIcon size={16} /> },
          { value: 'system', label: t('settings.theme.system'), icon: <MonitorIcon size={16} /> },
        ]}
      />
    </SettingsSection>
  );
}
