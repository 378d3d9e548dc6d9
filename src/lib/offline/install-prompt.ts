// "Install app": Chromium browsers fire beforeinstallprompt once the manifest and worker qualify;
// we keep the event for the settings entry. iOS Safari has no prompt: it gets instructions.
import { useSyncExternalStore } from 'react';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export interface InstallState {
  /** The browser offers installation now. */
  canPrompt: boolean;
  /** Running as an installed app (standalone window). */
  installed: boolean;
  /** iOS Safari: install through Share → Add to Home Screen. */
  iosHint: boolean;
}

let deferred: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();

function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

function isIosSafari(): boolean {
  const ua = navigator.userAgent;
  return /iPad|iPhone|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

let state: InstallState = compute();

function compute(): InstallState {
  if (typeof window === 'undefined') return { canPrompt: false, installed: false, iosHint: false };
  const installed = isStandalone();
  return { canPrompt: !!deferred && !installed, installed, iosHint: !installed && !deferred && isIosSafari() };
}

function changed(): void {
  state = compute();
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    changed();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    changed();
  });
}

/** Shows the browser's install dialog; must run from a click. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = deferred;
  if (!event) return 'unavailable';
  deferred = null;
  await event.prompt();
  const choice = await event.userChoice;
  changed();
  return choice.outcome;
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
    () => state,
  );
}
