import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { afterFirstRender } from './app/first-render';
import { preloadRoute } from './app/routing/lazy-pages';
import { startThemeSync } from './features/settings/model/theme';
import { initI18n } from './i18n/i18n';
import { followOtherTabs, getSession, subscribeSession } from './lib/session/session-store';
import { registerServiceWorker } from './lib/offline/sw-registration';
import { queryClient } from './lib/query/query-client';
import './lib/session/register-query-cleanup';
import './app/styles/tokens.css';
import './app/styles/base.css';
// The start-up spinner in index.html is styled by these before any script runs (the build links
// the entry CSS in <head>).
import './components/spinner.css';
import './components/full-screen-spinner.css';
import './app/styles/boot-spinner.css';
// The sign-in screen's brand side: index.html shows it to a visitor before any script runs.
import './features/auth/components/login-brand.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

/** Binds the query cache and the outbox to whoever is signed in (user-scope.ts), from now on. */
function bindOfflineData(): Promise<void> {
  return import('./lib/offline/user-scope')
    .then((module) => module.bindOfflineDataToSession(queryClient))
    .catch((error: unknown) => {
      // No IndexedDB (private mode, blocked): the app still works online.
      console.warn('offline data unavailable', error);
    });
}

function start(container: HTMLElement): void {
  startThemeSync();
  afterFirstRender(registerServiceWorker);
  afterFirstRender(followOtherTabs);
  const signedIn = getSession().isLoggedIn;
  // The first screen's strings are one small chunk; render once they are here so no key flashes.
  // The signed-in user's cached queries are restored first too, so an offline start paints data.
  // A visitor has none: that code loads when a session begins, and binds it then.
  const offlineData = signedIn ? bindOfflineData() : Promise.resolve();
  if (!signedIn) {
    const stop = subscribeSession(() => {
      if (!getSession().isLoggedIn) return;
      stop();
      void bindOfflineData();
    });
  }
  // Without a session only the sign-in screen's part of the strings (i18n/locale-parts.ts).
  const strings = initI18n({ all: signedIn });
  // The opening route's chunks load alongside (lazy-pages.ts), so its page renders at once rather
  // than behind a spinner and a second round of requests.
  const route = preloadRoute(location.hash.replace(/^#/, '').split('?')[0] || '/', signedIn);
  void Promise.all([strings, offlineData, route]).finally(() => {
    const reactRoot = createRoot(container);
    // A transition: React renders the first screen in slices of a few milliseconds and yields in
    // between, instead of one long task that blocks input until the whole page is built.
    startTransition(() => {
      reactRoot.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });
}

// The app starts in the task after this module's (and its imports') evaluation: the two together
// would be one long task, in which the page cannot answer input.
setTimeout(() => start(root), 0);
