// Spec §2's route table on hash history.
import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/full-screen-spinner';
import {
  AppShell,
  CollectionPage,
  CollectionsPage,
  GeminiBananaPage,
  HistoryPage,
  HomePage,
  ImageProcessingPage,
  LoginPage,
  PromptManagementPage,
  SettingsPage,
  VideoGenerationPage,
} from './lazy-pages';
import { RequireSession } from './require-session';
import { VisitorOnly } from './visitor-only';

export function AppRoutes() {
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Routes>
        <Route
          path="/login"
          element={
            <VisitorOnly>
              <LoginPage />
            </VisitorOnly>
          }
        />
        <Route
          path="/"
          element={
            <RequireSession>
              <AppShell />
            </RequireSession>
          }
        >
          <Route index element={<HomePage />} />
          <Route path="image-processing" element={<ImageProcessingPage />} />
          <Route path="video-generation" element={<VideoGenerationPage />} />
          <Route path="collections" element={<CollectionsPage />} />
          <Route path="collections/:id" element={<CollectionPage />} />
          <Route path="gemini-banana" element={<GeminiBananaPage />} />
          <Route path="prompt-management" element={<PromptManagementPage />} />
          <Route path="history" element={<HistoryPage />} />
          <Route path="settings" element={<SettingsPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
