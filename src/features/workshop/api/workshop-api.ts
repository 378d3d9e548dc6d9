// The workshop calls of the third group (X-API-Version: v1, ADMIN only on the server). Its replies
// are the main API's envelope; the group client hands the body back as is, so it is opened here.
import { http, isApiError, request } from '../../../lib/api';
import { unwrapEnvelope } from '../../../lib/api/envelope';
import { i18n } from '../../../i18n/i18n';
import { IDEMPOTENCY_HEADER } from '../../../lib/api/idempotency-key';
import { uploadedFields } from '../../../lib/upload/resumable-files';
import type { WorkshopConfig, WorkshopItem, WorkshopModel, WorkshopPage, WorkshopType } from '../model/workshop-item';

const open = <T>(body: unknown): T => unwrapEnvelope<T>(body, (key, options) => i18n.t(key, options));

export async function fetchWorkshopModels(signal?: AbortSignal): Promise<WorkshopModel[]> {
  return open<WorkshopModel[]>(await http.get<unknown>('third', '/workshop/models', { signal }));
}

export async function fetchWorkshopItems(
  params: { cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<WorkshopPage> {
  const query = { limit: params.limit ?? 20, ...(params.cursor ? { cursor: params.cursor } : {}) };
  return open<WorkshopPage>(await http.get<unknown>('third', '/workshop/items', { params: query, signal }));
}

export async function fetchWorkshopItem(id: number, signal?: AbortSignal): Promise<WorkshopItem> {
  return open<WorkshopItem>(await http.get<unknown>('third', `/workshop/items/${id}`, { signal }));
}

export interface NewItem {
  type: WorkshopType;
  text: string;
  files: { name: string; blob: Blob }[];
  config: WorkshopConfig;
  language: string;
  /**
   * Sent as Idempotency-Key: every attempt at one item carries the same key, so an attempt whose
   * answer was lost on the way back is answered with the item it made instead of a second one.
   */
  idempotencyKey: string;
}

/**
 * Multipart, so images are not held to the 1 MB JSON limit. Where the server speaks tus the images
 * go up first as resumable uploads (a cut resumes on the caller's next attempt) and the form names
 * them with `images_upload_id`.
 */
export async function createWorkshopItem(item: NewItem, signal?: AbortSignal): Promise<WorkshopItem> {
  const parts = item.files.map((file) => ({ field: 'images', blob: file.blob, name: file.name }));
  const uploaded = await uploadedFields(parts, 'workshop', signal ?? new AbortController().signal);
  const form = new FormData();
  form.append('type', item.type);
  if (item.type !== 'image' && item.text) form.append('text', item.text);
  form.append('config', JSON.stringify(item.config));
  form.append('language', item.language);
  if (uploaded) for (const [field, id] of uploaded) form.append(field, id);
  else for (const file of item.files) form.append('images[]', file.blob, file.name);
  // Content-Type is left to the browser (multipart boundary); the group's JSON header is removed.
  const body = await request<unknown>('third', {
    method: 'POST',
    url: '/workshop/items',
    data: form,
    signal,
    headers: { 'Content-Type': undefined, [IDEMPOTENCY_HEADER]: item.idempotencyKey },
  });
  return open<WorkshopItem>(body);
}

export async function cancelWorkshopItem(id: number): Promise<WorkshopItem> {
  return open<WorkshopItem>(await http.post<unknown>('third', `/workshop/items/${id}/cancel`));
}

/** Every attempt at one retry carries the same `idempotencyKey`: a resend never runs the item twice. */
export async function retryWorkshopItem(id: number, idempotencyKey: string): Promise<WorkshopItem> {
  try {
    const body = await http.post<unknown>('third', `/workshop/items/${id}/retry`, undefined, {
      headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
    });
    return open<WorkshopItem>(body);
  } catch (error) {
    // The route's one 409: the item runs already. An earlier attempt whose answer was lost (or
    // another tab) started it, which is what was asked: the item as it is now.
    if (isApiError(error) && error.status === 409) return fetchWorkshopItem(id);
    throw error;
  }
}
