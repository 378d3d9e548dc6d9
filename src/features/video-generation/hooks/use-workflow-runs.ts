// The long work of the video workflow, one hook per run: the analysis stream, regeneration, video
// prompts and videos. Results go into the draft as they arrive (so a reload keeps them); what a
// reload cannot keep (progress, elapsed time, open streams) is state in those hooks, and this one
// picks the work up again after a reload (model/resume-plan.ts says what is to be picked up).
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { VideoDraft } from '../model/draft';
import type { ChoiceField } from '../../../../shared/fabric/fabric-fields';
import { workToResume } from '../model/resume-plan';
import { goToStep } from '../model/run-changes';
import { useAnalysisRun } from './use-analysis-run';
import { useRegenerationRun } from './use-regeneration-run';
import type { DraftUpdate } from './use-video-draft';
import { useVideoPromptsRun } from './use-video-prompts-run';
import { useVideoRuns } from './use-video-runs';
import type { WorkflowInputs } from './workflow-inputs';

/** `read` gives the draft with every change so far (a render may not have happened yet). */
export function useWorkflowRuns(draft: VideoDraft | null, update: DraftUpdate, read: () => VideoDraft | null) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'zh-CN';
  const presetLabel = useCallback(
    (field: ChoiceField, key: string) => t(`videoGeneration.presets.${field}.${key}`),
    [t],
  );
  const inputs: WorkflowInputs = { read, update, language, presetLabel };
  const { analysis, startAnalysis, retryAnalysis, cancelAnalysis, resumeAnalysis } = useAnalysisRun(inputs);
  const { regen, regenerate, cancelRegen } = useRegenerationRun(inputs);
  const { videosBusy, follow, createFromDraft, generateVideos, retry, cancelOne } = useVideoRuns(inputs);
  const { prompts, promptDrafts, runVideoPrompts } = useVideoPromptsRun(inputs, createFromDraft);
  const resumed = useRef(false);

  useEffect(() => {
    if (!draft || resumed.current) return;
    resumed.current = true;
    const work = workToResume(draft);
    if (work.kind === 'join-analysis') resumeAnalysis(work.requestId);
    else if (work.kind === 'video-prompts') void runVideoPrompts(work.quick);
    else if (work.kind === 'follow-videos') void follow(work.ids);
    else if (work.kind === 'mark-complete') update(goToStep('complete'));
  }, [draft, follow, resumeAnalysis, runVideoPrompts, update]);

  return {
    analysis,
    regen,
    prompts,
    promptDrafts,
    videosBusy,
    startAnalysis,
    retryAnalysis,
    cancelAnalysis,
    regenerate,
    cancelRegen,
    runVideoPrompts,
    generateVideos,
    retry,
    cancelOne,
    follow,
  };
}
