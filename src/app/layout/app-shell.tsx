// The protected layout (spec §2): navigation by role, and the page in the content area. The shell
// enters with a curtain-up reveal; pages swap with a short fade (both off for reduced motion).
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/full-screen-spinner';
import { OnlineIndicator } from '../../components/offline/online-indicator';
import { useResumePendingCollections } from '../../features/collections/hooks/use-resume-pending';
import { QueueIndicator } from '../../features/image-processing/components/queue-indicator';
import { useProfile } from '../../lib/session/profile';
import { BatchFinishedNotice } from '../batch-finished-notice';
import { BottomNav } from './bottom-nav';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { useMenu } from './use-menu';
import './app-shell.css';

export default function AppShell() {
  const items = useMenu();
  const { pathname } = useLocation();
  // Refreshes the cached profile (role changes show up) and surfaces an expired session early.
  useProfile();
  // Collections started on this device go on sending, whichever page opens first.
  useResumePendingCollections();
  return (
    <div className="shell" data-testid="app-shell">
      <Sidebar items={items} />
      <div className="shell__main">
        <TopBar />
        <main className="shell__content" id="main">
          <div className="shell-status">
            <OnlineIndicator />
            <QueueIndicator />
          </div>
          <div className="shell__page" key={pathname}>
            <Suspense fallback={<FullScreenSpinner />}>
              <Outlet />
            </Suspense>
          </div>
        </main>
      </div>
      <BottomNav items={items} />
      <BatchFinishedNotice />
    </div>
  );
}
