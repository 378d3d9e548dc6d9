// Every page is its own chunk (spec §2: all pages load lazily). preloadRoute starts the chunks the
// opening route needs while the strings and the offline cache load, so they are not a request
// chain after the entry script, and a page whose chunk is already in renders at once.
import { createElement, lazy, useState, type ComponentType } from 'react';
import { warmFormats } from '../../i18n/formats';
import { initialLanguage, loadAllStrings } from '../../i18n/i18n';
import { isActivePath } from '../navigation/menu-entries';

interface PageModule {
  default: ComponentType;
}

/**
 * React.lazy, except that a page already loaded (preloadRoute) renders directly: lazy() suspends
 * on its first render even then, which commits the spinner and holds the page back until React's
 * throttle for revealing suspended content (300 ms) has passed.
 */
function lazyPage(load: () => Promise<PageModule>): ComponentType & { preload(): Promise<void> } {
  let loaded: ComponentType | null = null;
  let loading: Promise<PageModule> | null = null;
  const loadOnce = () =>
    (loading ??= load().then(
      (module) => ((loaded = module.default), module),
      (error: unknown) => {
        loading = null; // a later visit tries again (the network may be back)
        throw error;
      },
    ));
  const Lazy = lazy(loadOnce);
  function Page() {
    // Chosen once per mounted page: switching from the lazy wrapper to the page would remount it.
    const [direct] = useState(() => loaded);
    return createElement(direct ?? Lazy);
  }
  return Object.assign(Page, { preload: () => loadOnce().then(() => undefined) });
}

const loadLoginPage = () => import('../../features/auth/components/login-page');
const loadAppShell = () => import('../layout/app-shell');
const loadHomePage = () => import('../../features/home/components/home-page');
const loadImageProcessingPage = () =>
  import('../../features/image-processing/components/image-processing-page');
const loadVideoGenerationPage = () =>
  import('../../features/video-generation/components/video-generation-page');
const loadCollectionsPage = () => import('../../features/collections/components/collections-page');
const loadCollectionPage = () => import('../../features/collections/components/collection-page');
const loadGeminiBananaPage = () => import('../../features/workshop/components/gemini-banana-page');
const loadPromptManagementPage = () => import('../../features/prompts/components/prompt-management-page');
const loadHistoryPage = () => import('../../features/history/components/history-page');
const loadSettingsPage = () => import('../../features/settings/components/settings-page');

export const LoginPage = lazyPage(loadLoginPage);
// Every signed-in page renders inside the shell: it waits for the signed-in pages' strings too.
export const AppShell = lazyPage(() =>
  Promise.all([loadAppShell(), loadAllStrings().catch(() => undefined)]).then(([module]) => module),
);
export const HomePage = lazyPage(loadHomePage);
export const ImageProcessingPage = lazyPage(loadImageProcessingPage);
export const VideoGenerationPage = lazyPage(loadVideoGenerationPage);
export const CollectionsPage = lazyPage(loadCollectionsPage);
export const CollectionPage = lazyPage(loadCollectionPage);
export const GeminiBananaPage = lazyPage(loadGeminiBananaPage);
export const PromptManagementPage = lazyPage(loadPromptManagementPage);
export const HistoryPage = lazyPage(loadHistoryPage);
export const SettingsPage = lazyPage(loadSettingsPage);

/** The signed-in pages by path, as routed in app-routes.tsx. */
// `formats`: the page's first render formats dates or numbers or sorts text (i18n/formats.ts),
// whatever the person's data. History formats only its rows' dates: with no rows the loading
// would be work its start does not need.
const PAGES: readonly (readonly [string, { preload(): Promise<void> }, { formats: boolean }])[] = [
  ['/', HomePage, { formats: true }],
  ['/image-processing', ImageProcessingPage, { formats: true }],
  ['/video-generation', VideoGenerationPage, { formats: false }],
  ['/collections', CollectionsPage, { formats: true }],
  ['/collections/:id', CollectionPage, { formats: true }],
  ['/gemini-banana', GeminiBananaPage, { formats: false }],
  ['/prompt-management', PromptManagementPage, { formats: true }],
  ['/history', HistoryPage, { formats: false }],
  ['/settings', SettingsPage, { formats: true }],
];

/**
 * Loads what the route at `pathname` renders: the sign-in page for a visitor, else the shell and
 * the page (home for a path that redirects there). Resolves when they are in; a failure is left
 * to the page's own load, which shows it. The page's formatting data loads meanwhile, for a page
 * that needs it in its first render (call after initI18n: it uses the language chosen there).
 */
export function preloadRoute(pathname: string, signedIn: boolean): Promise<void> {
  // A numbered page under a route (/collections/12) is that route's `:id` page.
  const [, page, { formats }] =
    PAGES.find(([path]) => isActivePath(path, pathname) || isActivePath(path, pathname.replace(/\/\d+\/?$/, '/:id'))) ??
    PAGES[0]!;
  if (signedIn && formats) warmFormats(initialLanguage());
  const pages = signedIn ? [AppShell, page] : [LoginPage];
  return Promise.all(pages.map((page) => page.preload())).then(
    () => undefined,
    () => undefined,
  );
}
