// Every page is its own chunk (spec §2: all pages load lazily). preloadRoute starts the chunks the
// opening route needs while the strings and the offline cache load, so they are not a request
// chain after the entry script.
import { lazy } from 'react';
import { loadAllStrings } from '../../i18n/i18n';
import { isActivePath } from '../navigation/menu-entries';

const loadLoginPage = () => import('../../features/auth/components/login-page');
const loadAppShell = () => import('../layout/app-shell');
const loadHomePage = () => import('../../features/home/components/home-page');
const loadImageProcessingPage = () =>
  import('../../features/image-processing/components/image-processing-page');
const loadVideoGenerationPage = () =>
  import('../../features/video-generation/components/video-generation-page');
const loadGeminiBananaPage = () => import('../../features/workshop/components/gemini-banana-page');
const loadPromptManagementPage = () => import('../../features/prompts/components/prompt-management-page');
const loadHistoryPage = () => import('../../features/history/components/history-page');
const loadSettingsPage = () => import('../../features/settings/components/settings-page');

export const LoginPage = lazy(loadLoginPage);
// Every signed-in page renders inside the shell: it waits for the signed-in pages' strings too.
export const AppShell = lazy(() =>
  Promise.all([loadAppShell(), loadAllStrings().catch(() => undefined)]).then(([module]) => module),
);
export const HomePage = lazy(loadHomePage);
export const ImageProcessingPage = lazy(loadImageProcessingPage);
export const VideoGenerationPage = lazy(loadVideoGenerationPage);
export const GeminiBananaPage = lazy(loadGeminiBananaPage);
export const PromptManagementPage = lazy(loadPromptManagementPage);
export const HistoryPage = lazy(loadHistoryPage);
export const SettingsPage = lazy(loadSettingsPage);

/** The signed-in pages by path, as routed in app-routes.tsx. */
const PAGE_LOADERS: readonly (readonly [string, () => Promise<unknown>])[] = [
  ['/', loadHomePage],
  ['/image-processing', loadImageProcessingPage],
  ['/video-generation', loadVideoGenerationPage],
  ['/gemini-banana', loadGeminiBananaPage],
  ['/prompt-management', loadPromptManagementPage],
  ['/history', loadHistoryPage],
  ['/settings', loadSettingsPage],
];

/**
 * Starts loading the chunks the route at `pathname` renders: the sign-in page for a visitor, else
 * the shell and the page (home for a path that redirects there). Resolves when they are in; a
 * failure is left to the page's own load, which shows it.
 */
export function preloadRoute(pathname: string, signedIn: boolean): Promise<void> {
  const loaders = signedIn
    ? [loadAppShell, PAGE_LOADERS.find(([path]) => isActivePath(path, pathname))?.[1] ?? loadHomePage]
    : [loadLoginPage];
  return Promise.all(loaders.map((load) => load())).then(
    () => undefined,
    () => undefined,
  );
}
