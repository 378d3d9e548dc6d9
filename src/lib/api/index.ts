// The API client's public surface; features import from here. The streamed POST calls are imported
// from './post-event-stream' itself: through this file every page (the sign-in route too) reached
// them and their parser, so the bundler put them in the chunk every route loads.
export { ApiError, isApiError, isCancelled, type FieldError } from './api-error';
export type { ApiGroup } from './api-groups';
export { http, request, upload, type UploadOptions } from './http-client';
export type { StreamOutcome } from './event-stream';
export { loadRuntimeConfig, type RuntimeConfig } from './runtime-config';
