// The service worker's cache names and its message to the pages, which the pages read too (logout
// deletes the user caches, kept videos have a cache of their own, an eviction is reported). They
// live in src/lib, which the service worker imports and which never imports the service worker;
// src/sw/routes.ts re-exports them.
/** Caches whose names start with this hold one user's data: deleted on logout (lib/offline/user-scope.ts). */
export const USER_CACHE_PREFIX = 'loom-user-';

export const CACHE_NAMES = {
  config: 'loom-config',
  locales: 'loom-locales',
  media: 'loom-user-media', // a user cache: starts with USER_CACHE_PREFIX
  // Finished videos the person keeps for offline showing, within their budget (a user cache too).
  videos: 'loom-user-videos',
  // Real-CUGAN's converted graphs (no user data) for upscaling on this device, offline too.
  deviceModels: 'loom-device-models',
} as const;

/** The worker tells its pages what it evicted after a quota error (lib/offline/sw-registration.ts). */
export const MEDIA_EVICTED_MESSAGE = 'MEDIA_EVICTED';
