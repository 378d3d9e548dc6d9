// What the history calls answer (main group, snake_case as the server sends it; spec §3 fields):
// the server's schemas, through the generated API types.
import type { ApiSchema } from '../../../lib/api/api-types';

export type HistoryKind = 'images' | 'videos';

export type GeneratedImage = ApiSchema<'GeneratedImage'>;
export type ImageDetail = ApiSchema<'ImageDetail'>;
export type VideoGeneration = ApiSchema<'VideoGeneration'>;
export type VideoDetail = ApiSchema<'VideoDetail'>;
export type HistoryStatus = GeneratedImage['status'];

/** A page of either list: the server's page shape, whatever the item. */
export type HistoryPage<T> = Omit<ApiSchema<'GeneratedImagePage'>, 'items'> & { items: T[] };
