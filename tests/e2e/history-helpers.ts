// Helpers of the history browser tests: history items made by the built-in engine over HTTP
// (an analysis stream makes six candidate images; a video from one of them), read back through
// the real list and detail calls.
import { makePng } from './image-processing-helpers';
import { apiCall } from './offline-helpers';

/** Runs one analysis to the end of its event stream: six candidate images of this user. */
export async function analyseOnce(baseUrl: string, token: string, n: number): Promise<void> {
  const form = new FormData();
  form.set('prompt', `Summer linen dress, run ${n}`);
  form.set('request_id', `history-e2e-${n}-${Date.now()}`);
  form.append('model_images', new Blob([new Uint8Array(makePng(48, 64, 10 + n))], { type: 'image/png' }), `model-${n}.png`);
  form.append('pattern_images', new Blob([new Uint8Array(makePng(40, 40, 50 + n))], { type: 'image/png' }), `pattern-${n}.png`);
  const res = await fetch(`${baseUrl}/image-api/analyze-images-json-stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: form,
  });
  if (!res.ok) throw new Error(`analysis ${n} answered ${res.status}: ${await res.text()}`);
  await res.text();
}

export interface ListedItem {
  id: number;
  status: string;
  url: string | null;
  thumbnail_url: string | null;
}

export async function listAll(baseUrl: string, token: string, path: string): Promise<ListedItem[]> {
  const items: ListedItem[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query: string = `?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
    const r = await apiCall<{ items: ListedItem[]; next_cursor: string | null }>(baseUrl, 'GET', `${path}${query}`, token);
    items.push(...r.data.items);
    if (!r.data.next_cursor) return items;
    cursor = r.data.next_cursor;
  }
}

/** Starts a standard 6 s 512P video from an image and waits until it is completed. */
export async function makeVideo(baseUrl: string, token: string, imageId: number, prompt: string): Promise<number> {
  const created = await apiCall<{ id: number }[]>(baseUrl, 'POST', '/user/video-generations', token, {
    image_id: imageId,
    kind: 'standard',
    prompt,
    duration: 6,
    resolution: '512P',
  });
  if (created.status !== 201) throw new Error(`video not started: ${created.message}`);
  const id = created.data[0]!.id;
  await waitForVideo(baseUrl, token, id);
  return id;
}

export async function waitForVideo(baseUrl: string, token: string, id: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const r = await apiCall<{ status: string; error: unknown }>(baseUrl, 'GET', `/user/video-generations/${id}`, token);
    if (r.data.status === 'completed') return;
    if (r.data.status === 'failed') throw new Error(`video ${id} failed: ${JSON.stringify(r.data.error)}`);
    if (Date.now() > deadline) throw new Error(`video ${id} still ${r.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
