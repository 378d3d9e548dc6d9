// Hand-off from the workshop to the video workflow (#/video-generation): one pending offer in
// sessionStorage under VIDEO_HANDOFF_KEY, written by the workshop's "send to video workflow" and
// taken (read and removed) by the video workflow page when it opens.
//
//   { version: 1, kind: 'description', text, createdAt }   -> the quick description field
//   { version: 1, kind: 'image', url, fileName, createdAt } -> a source image (a signed link the
//                                                               page fetches with the bearer token
//                                                               or plainly; it expires after hours)
//
// sessionStorage: the offer lives in this tab only and is gone with it.
export const VIDEO_HANDOFF_KEY = 'loom.handoff.video';

export type VideoHandoff =
  | { version: 1; kind: 'description'; text: string; createdAt: number }
  | { version: 1; kind: 'image'; url: string; fileName: string; createdAt: number };

export function offerToVideo(storage: Pick<Storage, 'setItem'>, offer: VideoHandoff): void {
  storage.setItem(VIDEO_HANDOFF_KEY, JSON.stringify(offer));
}

/** Reads and removes the pending offer; null when there is none or it cannot be read. */
export function takeVideoHandoff(storage: Pick<Storage, 'getItem' | 'removeItem'>): VideoHandoff | null {
  const raw = storage.getItem(VIDEO_HANDOFF_KEY);
  if (raw === null) return null;
  storage.removeItem(VIDEO_HANDOFF_KEY);
  try {
    const value = JSON.parse(raw) as Partial<VideoHandoff> | null;
    if (value?.version !== 1) return null;
    if (value.kind === 'description' && typeof value.text === 'string') return value as VideoHandoff;
    if (value.kind === 'image' && typeof value.url === 'string' && typeof value.fileName === 'string') return value as VideoHandoff;
    return null;
  } catch {
    return null;
  }
}
