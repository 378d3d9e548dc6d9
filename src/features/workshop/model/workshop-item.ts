// The workshop's item as the third group answers it (server/modules/workshop/workshop-views.ts),
// and the spec's four states (§4) plus the device-side states of an item not yet sent.
export const WORKSHOP_TYPES = ['text', 'image', 'mixed'] as const;
export type WorkshopType = (typeof WORKSHOP_TYPES)[number];

export const OUTPUT_STYLES = ['natural', 'creative', 'professional', 'artistic'] as const;
export type OutputStyle = (typeof OUTPUT_STYLES)[number];

export type ServerStatus = 'pending' | 'processing' | 'completed' | 'error';

export interface WorkshopConfig {
  model?: string;
  creativity: number;
  precision: number;
  style: OutputStyle;
}

export interface WorkshopFileLink {
  file_id: string;
  url: string;
}

/** One change the built-in text polish made. */
export interface TextChange {
  rule: string;
  from: string;
  to: string;
}

/** What the built-in text polish did: the spelling check (or that the language has no dictionary) and each change. */
export interface TextChanges {
  spelling: { checked: true; dictionary: string } | { checked: false; language: string };
  changes: TextChange[];
  unknown: string[];
}

export interface WorkshopResult {
  text: string | null;
  images: WorkshopFileLink[];
  confidence: number | null;
  model: string | null;
  processing_ms: number | null;
  /** Only from the built-in engine (absent in results saved before it listed its changes). */
  text_changes?: TextChanges | null;
}

export interface WorkshopItem {
  id: number;
  type: WorkshopType;
  status: ServerStatus;
  text: string | null;
  images: WorkshopFileLink[];
  config: WorkshopConfig;
  result: WorkshopResult | null;
  provider: string | null;
  local_preview: boolean;
  error: { code: string; message: string } | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

export interface WorkshopModel {
  id: string;
  name: string;
  local_preview: boolean;
  default: boolean;
  types: readonly string[];
  styles: readonly string[];
}

export interface WorkshopPage {
  items: WorkshopItem[];
  next_cursor: string | null;
  has_more: boolean;
}

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
