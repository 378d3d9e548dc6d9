// Notifications on/off (spec §2). On: finished background work (an upscale batch) is announced —
// as a system notification while the app is in the background, if the browser allows it, else
// inside the app. Permission is asked from the user's own click: turning the switch on, or the
// "allow" button when the switch was already on by default.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { BellIcon } from '../../../components/icons';
import {
  requestSystemNotifications,
  systemNotificationPermission,
  type SystemNotificationPermission,
} from '../../../lib/notifications/system-notification';
import {
  notificationsEnabled,
  setNotificationsEnabled,
  subscribeNotifications,
} from '../model/notifications';
import { SettingsSection } from './settings-section';
import { ToggleSwitch } from './toggle-switch';

export function NotificationsSection() {
  const { t } = useTranslation();
  const enabled = useSyncExternalStore(subscribeNotifications, notificationsEnabled, notificationsEnabled);
  const [permission, setPermission] = useState<SystemNotificationPermission>(systemNotificationPermission);

  // The answer can change in the browser's site settings while the page is open.
  useEffect(() => {
    const refresh = () => setPermission(systemNotificationPermission());
    document.addEventListener('visibilitychange', refresh);
    return () => document.removeEventListener('visibilitychange', refresh);
  }, []);

  const askPermission = useCallback(async () => {
    setPermission(await requestSystemNotifications());
  }, []);

  const onChange = (checked: boolean) => {
    setNotificationsEnabled(checked);
    if (checked && permission === 'default') void askPermission();
  };

  return (
    <SettingsSection id="notifications" icon={<BellIcon />} title={t('settings.notifications.title')}>
      <ToggleSwitch
        checked={enabled}
        onChange={onChange}
        label={enabled ? t('settings.notifications.enabled') : t('settings.notifications.disabled')}
        description={t('settings.notifications.description')}
        testId="notifications-switch"
      />
      {enabled ? (
        <SystemNotificationsState permission={permission} onAllow={() => void askPermission()} />
      ) : null}
    </SettingsSection>
  );
}

function SystemNotificationsState({
  permission,
  onAllow,
}: {
  permission: SystemNotificationPermission;
  onAllow: () => void;
}) {
  const { t } = useTranslation();
  if (permission === 'default') {
    return (
      <div className="settings-notifications__system">
        <p>{t('settings.notifications.systemHint')}</p>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={onAllow}
          data-testid="notifications-allow-system"
        >
          {t('settings.notifications.allowSystem')}
        </button>
      </div>
    );
  }
  const text = {
    granted: t('settings.notifications.systemOn'),
    denied: t('settings.notifications.systemBlocked'),
    unsupported: t('settings.notifications.systemUnsupported'),
  }[permission];
  return (
    <p className="settings-notifications__system" data-testid="notifications-system-state">
      {text}
    </p>
  );
}
