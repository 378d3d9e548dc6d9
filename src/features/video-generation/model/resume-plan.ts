// What a reloaded page picks up again, read from the draft alone: the streams and timers of the
// work in progress are gone, the ids to find the work again on the server are kept.
import type { VideoDraft } from './draft';
import { isFinished } from './generation-types';

export type ResumeWork =
  /** An analysis was sent: look it up on the server, and join it again if it is still running. */
  | { kind: 'join-analysis'; requestId: string }
  /** Video prompts were being written: ask again for the images still without them. */
  | { kind: 'video-prompts'; quick: boolean }
  /** Videos are still being made: follow them again by their ids. */
  | { kind: 'follow-videos'; ids: number[] }
  /** Every video ended while the page was closed. */
  | { kind: 'mark-complete' }
  | { kind: 'nothing' };

export function workToResume(d: VideoDraft): ResumeWork {
  if (d.step === 'images' && d.analysisStarted && d.requestId) return { kind: 'join-analysis', requestId: d.requestId };
  if (d.step === 'videoPrompts') return { kind: 'video-prompts', quick: d.mode === 'quick' };
  if ((d.step === 'videos' || d.step === 'complete') && d.videos.some((v) => !isFinished(v.status)))
    return { kind: 'follow-videos', ids: d.videos.map((v) => v.id) };
  if (d.step === 'videos' && d.videos.length > 0) return { kind: 'mark-complete' };
  return { kind: 'nothing' };
}
