import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { BellIcon } from '../../../components/icons';
import { notificationsEnabled, setNotificationsEnabled, subscribeNotifications } from '../model/notifications';
import { SettingsSection } from './settings-section';
import { ToggleSwitch } from './toggle-switch';

export function NotificationsSection() {
  const { t } = useTranslation();
  const enabled = useSyncExternalStore(subscribeNotifications, notificationsEnabled, notificationsEnabled);
  return (
    <SettingsSection id="notifications" icon={<BellIcon />} title={t('settings.notifications.title')}>
      <ToggleSwitch
        checked={enabled}
        onChange={setNotificationsEnabled}
        label={enabled ? t('settings.notifications.enabled') : t('settings.notifications.disabled')}
        description={t('settings.notifications.description')}
        testId="notifications-switch"
      />
    </SettingsSection>
  );
}
