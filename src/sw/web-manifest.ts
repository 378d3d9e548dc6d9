// The Web App Manifest (installability): vite-plugin-pwa writes it as manifest.webmanifest and
// links it from index.html. The build check (tests/build) asserts these fields.
import type { ManifestOptions } from 'vite-plugin-pwa';

export const webManifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Loom Studio',
  short_name: 'Loom',
  description: 'Fabric photos into marketing images and videos: upscaling, generation, prompts and history, also offline.',
  lang: 'zh-CN',
  start_url: '/#/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: '#4f46e5',
  background_color: '#f5f6fa',
  categories: ['productivity', 'design', 'photo'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  screenshots: [
    { src: '/screenshots/wide.png', sizes: '1280x800', type: 'image/png', form_factor: 'wide', label: 'Loom Studio on a tablet' },
    { src: '/screenshots/narrow.png', sizes: '750x1334', type: 'image/png', form_factor: 'narrow', label: 'Loom Studio on a phone' },
  ],
};
