// Every page is its own chunk (spec §2: all pages load lazily).
import { lazy } from 'react';

export const LoginPage = lazy(() => import('../../features/auth/components/login-page'));
export const AppShell = lazy(() => import('../layout/app-shell'));
export const HomePage = lazy(() => import('../../features/home/components/home-page'));
export const ImageProcessingPage = lazy(() => import('../../features/image-processing/components/image-processing-page'));
export const VideoGenerationPage = lazy(() => import('../../features/video-generation/components/video-generation-page'));
export const GeminiBananaPage = lazy(() => import('../../features/workshop/components/gemini-banana-page'));
export const PromptManagementPage = lazy(() => import('../../features/prompts/components/prompt-management-page'));
export const HistoryPage = lazy(() => import('../../features/history/components/history-page'));
export const SettingsPage = lazy(() => import('../../features/settings/components/settings-page'));
