// Notifications preference (spec §2 settings): on by default. Features that announce finished
// background work (an upscale batch, a video) check it before notifying.
import { STORAGE_KEYS } from '../../../lib/session/storage-keys';

const listeners = new Set<() => void>();

export function notificationsEnabled(): boolean {
  return localStorage.getItem(STORAGE_KEYS.notifications) !== 'disabled';
}

export function setNotificationsEnabled(enabled: boolean): void {
  localStorage.setItem(STORAGE_KEYS.notifications, enabled ? 'enabled' : 'disabled');
  for (const listener of listeners) listener();
}

export function subscribeNotifications(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
