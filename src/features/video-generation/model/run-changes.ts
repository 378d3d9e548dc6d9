// How the workflow's runs change the draft as their results arrive. Pure, so each change is the
// same whether it comes from a stream, a recovery after a cut, or a reload.
import { mergeImages, type DraftPrompt, type VideoDraft } from './draft';
import type { GeneratedImage, ImageRequestView, VideoView } from './generation-types';
import { furthestOf, type StepId } from './workflow-steps';

/** Moves to a step and remembers it as reached. */
export function goToStep(step: StepId) {
  return (d: VideoDraft): VideoDraft => ({ ...d, step, furthest: furthestOf(d.furthest, step) });
}

/** The candidates an analysis request has finished; the others are still being made or failed. */
export function completedImages(view: ImageRequestView): GeneratedImage[] {
  return view.images.filter((i) => i.status === 'completed');
}

/** A new analysis under a new request id: its earlier text, candidates and choices go. */
export function withNewAnalysis(d: VideoDraft, requestId: string): VideoDraft {
  return goToStep('images')({
    ...d,
    requestId,
    analysisStarted: true,
    analysisText: '',
    analysisModel: null,
    candidates: [],
    candidatesNotice: null,
    selectedImageIds: [],
  });
}

/** A finished analysis as the server has it; the designer goes on to choose among its images. */
export function withFinishedAnalysis(d: VideoDraft, view: ImageRequestView): VideoDraft {
  return goToStep('select')({
    ...d,
    analysisText: view.analysis_text ?? d.analysisText,
    analysisModel: view.model ?? d.analysisModel,
    candidates: mergeImages(d.candidates, completedImages(view)),
    candidatesNotice: view.candidates?.message ?? null,
  });
}

/** Images of a cancelled regeneration leave the candidates and the selection. */
export function withoutImages(d: VideoDraft, imageIds: readonly number[]): VideoDraft {
  const gone = new Set(imageIds);
  return {
    ...d,
    candidates: d.candidates.filter((c) => !gone.has(c.id)),
    selectedImageIds: d.selectedImageIds.filter((id) => !gone.has(id)),
  };
}

/** An image's video prompts replaced by the ones the server saved for it. */
export function withImagePrompts(d: VideoDraft, imageId: number, prompts: DraftPrompt[]): VideoDraft {
  return { ...d, videoPrompts: [...d.videoPrompts.filter((p) => p.imageId !== imageId), ...prompts] };
}

/** A running video's progress event: it is generating, and its progress never goes back. */
export function withVideoProgress(d: VideoDraft, event: { id: number; progress?: number; message?: string }): VideoDraft {
  return {
    ...d,
    videos: d.videos.map(
      (v): VideoView =>
        v.id === event.id
          ? {
              ...v,
              status: 'generating',
              progress: Math.max(v.progress, event.progress ?? v.progress),
              ...(event.message ? { progress_message: event.message } : {}),
            }
          : v,
    ),
  };
}
