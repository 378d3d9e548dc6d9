// An upscaled image as a Blob: the copy kept on the device when there is one, else the signed
// download link (which needs the network and may have expired).
import { getSession } from '../../../lib/session/session-store';
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { loadResultBlob } from '../model/file-store';

export async function fetchResultBlob(item: QueueItem, signal?: AbortSignal): Promise<Blob> {
  const local = item.resultStored ? await loadResultBlob(item.id) : undefined;
  if (local) return local;
  if (!item.result) throw new Error('no result');
  const token = getSession().token;
  const res = await fetch(item.result.url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal });
  if (!res.ok) throw new Error(`download ${res.status}`);
  return res.blob();
}
