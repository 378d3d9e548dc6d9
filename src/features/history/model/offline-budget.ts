// The offline budget of history on a device: what IndexedDB (the persisted query cache) keeps of
// the lists and details, least recently used first out. Thumbnails and media live in the service
// worker's media cache, which keeps its own last-used order (src/sw/routes.ts EXPIRY.media).
import { EXPIRY } from '../../../sw/routes';

/** Items per tab kept for offline browsing (whole pages, newest first). */
export const OFFLINE_LIST_ITEMS = 60;
/** Image and video details kept for offline opening, together. */
export const OFFLINE_DETAILS = 30;
/** Items loaded per page. */
export const PAGE_SIZE = 12;
/** Media files (thumbnails, images, frames, videos) the service worker keeps, least recently used out. */
export const OFFLINE_MEDIA_FILES = EXPIRY.media.maxEntries;
