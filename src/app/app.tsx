// Providers and the router. i18n is initialised before this renders (main.tsx).
import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { HashRouter } from 'react-router-dom';
import { i18n } from '../i18n/i18n';
import { queryClient } from '../lib/query/query-client';
import { StorageNotices } from '../components/offline/storage-notices';
import { UpdatePrompt } from '../components/offline/update-prompt';
import { AppToaster } from './app-toaster';
import { markFirstRender } from './first-render';
import { AppRoutes } from './routing/app-routes';
import { SessionExpiryNotice } from './session-expiry-notice';

export function App() {
  useEffect(markFirstRender, []);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <HashRouter>
          <SessionExpiryNotice />
          <AppRoutes />
        </HashRouter>
        <AppToaster />
        <UpdatePrompt />
        <StorageNotices />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
