// The workshop's item as the third group answers it (the server's schemas, through the generated
// API types), and the spec's four states (§4) plus the device-side states of an item not yet sent.
import {
  ENHANCE_STYLES,
  WORKSHOP_TYPES,
  type EnhanceStyle,
  type WorkshopType,
} from '../../../../shared/workshop/workshop-options';
import type { ApiSchema } from '../../../lib/api/api-types';

export { WORKSHOP_TYPES, type WorkshopType };
export const OUTPUT_STYLES = ENHANCE_STYLES;
export type OutputStyle = EnhanceStyle;

export type WorkshopItem = ApiSchema<'WorkshopItem'>;
export type WorkshopResult = ApiSchema<'WorkshopResult'>;
export type WorkshopConfig = ApiSchema<'WorkshopConfig'>;
export type WorkshopModel = ApiSchema<'WorkshopModel'>;
export type WorkshopPage = ApiSchema<'WorkshopItemPage'>;
/** What the built-in text polish did: the spelling check (or that the language has no dictionary) and each change. */
export type TextChanges = ApiSchema<'TextChangeReport'>;
export type ServerStatus = WorkshopItem['status'];

/** Still running on the server: counts against the queue's concurrency, polled for its result. */
export function isRunning(status: ServerStatus): boolean {
  return status === 'pending' || status === 'processing';
}

/** Cancelled by the person: the server keeps it as an error whose code is `cancelled`. */
export function isCancelledItem(item: Pick<WorkshopItem, 'status' | 'error'>): boolean {
  return item.status === 'error' && item.error?.code === 'cancelled';
}

/** The item's type from what it holds: text, images, or both. */
export function typeOf(text: string, imageCount: number): WorkshopType | null {
  const hasText = text.trim().length > 0;
  if (hasText && imageCount > 0) return 'mixed';
  if (imageCount > 0) return 'image';
  if (hasText) return 'text';
  return null;
}
