// The API client's public surface; features import from here.
export { ApiError, isApiError, isCancelled, type FieldError } from './api-error';
export type { ApiGroup } from './api-groups';
export { http, request, upload, type UploadOptions } from './http-client';
export { postEventStream, type PostEventStreamOptions } from './post-event-stream';
export type { StreamOutcome } from './event-stream';
export { loadRuntimeConfig, type RuntimeConfig } from './runtime-config';
