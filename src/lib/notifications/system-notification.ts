// The browser's Notification API, for news that arrives while the app is in the background.
// Permission is only ever asked from a click (browsers ignore or penalise asking unprompted).

export type SystemNotificationPermission = NotificationPermission | 'unsupported';

export function systemNotificationPermission(): SystemNotificationPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Call from a click handler. Resolves with the user's answer (or the standing one). */
export async function requestSystemNotifications(): Promise<SystemNotificationPermission> {
  const current = systemNotificationPermission();
  if (current !== 'default') return current;
  return Notification.requestPermission();
}

export interface SystemNotice {
  title: string;
  body: string;
  /** One notice per tag: a newer one replaces an older one still on screen. */
  tag: string;
  /** Runs after the notice was clicked and the app's window brought forward. */
  onClick?: () => void;
}

/** Shows the notice if allowed; false when it could not be shown (the caller tells it in-app). */
export async function showSystemNotification(notice: SystemNotice): Promise<boolean> {
  if (systemNotificationPermission() !== 'granted') return false;
  const options: NotificationOptions = { body: notice.body, tag: notice.tag, icon: '/icons/icon-192.png' };
  try {
    const shown = new Notification(notice.title, options);
    shown.onclick = () => {
      window.focus();
      shown.close();
      notice.onClick?.();
    };
    return true;
  } catch {
    // Chrome on Android has no Notification constructor: only the service worker may show one.
  }
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    if (!registration) return false;
    await registration.showNotification(notice.title, options);
    return true;
  } catch {
    return false;
  }
}
