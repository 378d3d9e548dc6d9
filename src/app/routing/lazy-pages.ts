// Every page is its own chunk (spec §2: all pages load lazily).
import { lazy } from 'react';
import { loadAllStrings } from '../../i18n/i18n';

export const LoginPage = lazy(() => import('../../features/auth/components/login-page'));
// Every signed-in page renders inside the shell: it waits for the signed-in pages' strings too.
export const AppShell = lazy(() =>
  Promise.all([import('../layout/app-shell'), loadAllStrings().catch(() => undefined)]).then(([module]) => module),
);
export const HomePage = lazy(() => import('../../features/home/components/home-page'));
export const ImageProcessingPage = lazy(() => import('../../features/image-processing/components/image-processing-page'));
export const VideoGenerationPage = lazy(() => import('../../features/video-generation/components/video-generation-page'));
export const GeminiBananaPage = lazy(() => import('../../features/workshop/components/gemini-banana-page'));
export const PromptManagementPage = lazy(() => import('../../features/prompts/components/prompt-management-page'));
export const HistoryPage = lazy(() => import('../../features/history/components/history-page'));
export const SettingsPage = lazy(() => import('../../features/settings/components/settings-page'));
