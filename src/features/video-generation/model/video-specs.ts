// The body of POST /user/video-generations for the chosen prompts: each prompt with its image's
// settings, sent in calls of at most VIDEOS_PER_CALL items.
import type { VideoSpecBody } from './generation-types';
import type { VideoDraft } from './draft';
import { DEFAULT_VIDEO_SETTINGS, MAX_CAMERA_MOVES } from './generation-types';

/** The server takes at most this many videos in one create call (MAX_VIDEOS_PER_CALL). */
export const VIDEOS_PER_CALL = 10;

export function videoSpecs(d: VideoDraft, promptIds: readonly number[]): VideoSpecBody[] {
  return promptIds.flatMap((pid) => {
    const p = d.videoPrompts.find((x) => x.id === pid);
    if (!p) return [];
    const s = d.settings[p.imageId] ?? DEFAULT_VIDEO_SETTINGS;
    const lastFrame = s.kind === 'first-last-frame' && s.lastImageId !== null;
    return [
      {
        image_id: p.imageId,
        kind: lastFrame ? 'first-last-frame' : 'standard',
        ...(lastFrame ? { last_image_id: s.lastImageId ?? undefined } : {}),
        // An edited prompt goes as text (its save may not have reached the server); otherwise by id.
        ...(p.dirty ? { prompt: p.text } : { video_prompt_id: p.id }),
        // No camera moves chosen: the prompt's own, as many as a video takes.
        camera: s.camera.length > 0 ? s.camera : p.camera.slice(0, MAX_CAMERA_MOVES),
        aspect: s.aspect,
        duration: s.duration,
        resolution: s.resolution,
        prompt_optimizer: true,
        watermark: false,
      },
    ];
  });
}

/** The specs in create calls, in order. */
export function specBatches(specs: readonly VideoSpecBody[]): VideoSpecBody[][] {
  const batches: VideoSpecBody[][] = [];
  for (let i = 0; i < specs.length; i += VIDEOS_PER_CALL) batches.push(specs.slice(i, i + VIDEOS_PER_CALL));
  return batches;
}
