// The video workflow (spec §4): eight steps from fabric information to finished videos, kept as a
// draft in IndexedDB so a reload, a crash or a lost connection loses nothing.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { MAX_IMAGES_TOTAL, MAX_PATTERN_IMAGES } from '../../../../shared/generation/image-limits';
import { PROMPT_MAX_LENGTH } from '../../../../shared/prompts/prompt-rules';
import { FullScreenSpinner } from '../../../components/full-screen-spinner';
import { takeVideoHandoff } from '../../../lib/handoff/video-handoff';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { useHistorySource } from '../hooks/use-history-source';
import { useVideoDraft } from '../hooks/use-video-draft';
import { useWorkflowRuns } from '../hooks/use-workflow-runs';
import { newRequestId } from '../model/draft';
import { formProblems } from '../model/fabric-form';
import { isFinished } from '../model/generation-types';
import { blockerOf, furthestOf, nextStep, previousStep, type StepId } from '../model/workflow-steps';
import { CandidatesStep } from './candidates-step';
import { FillInfoStep } from './fill-info-step';
import { PromptStep } from './prompt-step';
import { VideoPromptsStep } from './video-prompts-step';
import { VideosStep } from './videos-step';
import { WorkflowStepper } from './workflow-stepper';
import './video-generation.css';

const NETWORK_STEPS: StepId[] = ['images', 'videoPrompts', 'videos'];
/** Back skips the steps that only show running work: to where the designer last chose something. */
const BACK_TO: Partial<Record<StepId, StepId>> = {
  images: 'prompt',
  select: 'prompt',
  videoPrompts: 'select',
  selectPrompts: 'select',
  videos: 'selectPrompts',
  complete: 'selectPrompts',
};

export default function VideoGenerationPage() {
  const { t } = useTranslation();
  const { draft, update, reset, read } = useVideoDraft();
  const runs = useWorkflowRuns(draft, update, read);
  const online = useOnlineStatus().online;
  useHistorySource(draft, update);

  // A hand-over from the workshop: a quick description or a source image.
  useEffect(() => {
    if (!draft) return;
    const offer = takeVideoHandoff(sessionStorage);
    if (!offer) return;
    if (offer.kind === 'description') {
      update((d) => ({ ...d, description: offer.text.slice(0, PROMPT_MAX_LENGTH) }));
      toast.success(t('videoGeneration.handoff.description'));
    } else {
      void fetch(offer.url)
        .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
        .then((blob) =>
          update((d) =>
            d.files.filter((f) => f.role === 'pattern').length >= MAX_PATTERN_IMAGES || d.files.length >= MAX_IMAGES_TOTAL
              ? d
              : { ...d, files: [...d.files, { id: newRequestId(), role: 'pattern', name: offer.fileName, blob }] },
          ),
        )
        .then(() => toast.success(t('videoGeneration.handoff.image')))
        .catch(() => toast.error(t('videoGeneration.handoff.failed')));
    }
    // Only once, when the draft is first there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft === null]);

  if (!draft) return <FullScreenSpinner />;

  const facts = {
    imageCount: draft.files.length,
    promptSelected: draft.promptSelected,
    promptText: draft.promptText,
    candidateCount: draft.candidates.length,
    selectedImages: draft.selectedImageIds.length,
    videoPromptCount: draft.videoPrompts.length,
    selectedPrompts: draft.selectedPromptIds.length,
    videoCount: draft.videos.length,
    videosFinished: draft.videos.every((v) => isFinished(v.status)),
  };
  const blocker = blockerOf(draft.step, facts);
  const problems = formProblems(draft.form);
  const busy = runs.analysis.running || runs.prompts.running || runs.videosBusy.running;
  const open = (step: StepId) => update((d) => ({ ...d, step, furthest: furthestOf(d.furthest, step) }));

  const onNext = () => {
    if (draft.step === 'info' && problems.length > 0) {
      toast.error(t('videoGeneration.errors.form'));
      return;
    }
    if (blocker) {
      toast.error(t(`videoGeneration.blockers.${blocker}`));
      return;
    }
    if (draft.step === 'prompt') runs.startAnalysis();
    else if (draft.step === 'select') void runs.runVideoPrompts(false);
    else if (draft.step === 'selectPrompts') runs.generateVideos();
    else open(nextStep(draft.step));
  };

  const nextLabel: Partial<Record<StepId, string>> = {
    prompt: t('videoGeneration.actions.analyse'),
    select: t('videoGeneration.actions.videoPrompts'),
    selectPrompts: t('videoGeneration.actions.generateVideos'),
  };
  const needsNetwork = !online && ['prompt', 'select', 'selectPrompts', ...NETWORK_STEPS].includes(draft.step);

  return (
    <div className="page vg-page" data-testid="video-generation-page">
      <header className="page__header">
        <h1>{t('nav.videoGeneration')}</h1>
        <p>{t('pages.videoGeneration.subtitle')}</p>
      </header>
      <WorkflowStepper step={draft.step} furthest={draft.furthest} busy={busy} onOpen={open} />
      {needsNetwork ? (
        <p className="vg-offline" role="status" data-testid="offline-note">
          {t('videoGeneration.offline')}
        </p>
      ) : null}
      <h2 className="vg-step-title" data-testid="current-step">
        {t('videoGeneration.stepOf', { n: ['info', 'prompt', 'images', 'select', 'videoPrompts', 'selectPrompts', 'videos', 'complete'].indexOf(draft.step) + 1, total: 8 })}{' '}
        · {t(`videoGeneration.steps.${draft.step}`)}
      </h2>

      {draft.step === 'info' ? <FillInfoStep draft={draft} update={update} /> : null}
      {draft.step === 'prompt' ? <PromptStep draft={draft} update={update} /> : null}
      {draft.step === 'images' || draft.step === 'select' ? (
        <CandidatesStep
          draft={draft}
          update={update}
          analysis={runs.analysis}
          regen={runs.regen}
          onCancelAnalysis={runs.cancelAnalysis}
          onRetryAnalysis={runs.retryAnalysis}
          onRegenerate={(id, prompt) => void runs.regenerate(id, prompt)}
          onCancelRegen={runs.cancelRegen}
        />
      ) : null}
      {draft.step === 'videoPrompts' || draft.step === 'selectPrompts' ? (
        <VideoPromptsStep draft={draft} update={update} prompts={runs.prompts} drafts={runs.promptDrafts} onRetry={() => void runs.runVideoPrompts(draft.mode === 'quick')} />
      ) : null}
      {draft.step === 'videos' || draft.step === 'complete' ? (
        <VideosStep
          draft={draft}
          busy={runs.videosBusy}
          onRetry={(id) => void runs.retry(id)}
          onCancel={(id) => void runs.cancelOne(id)}
          onRetryCreate={runs.generateVideos}
        />
      ) : null}

      <footer className="vg-footer">
        <button
          type="button"
          className="btn btn--ghost vg-touch"
          disabled={draft.step === 'info' || busy}
          onClick={() => open(BACK_TO[draft.step] ?? previousStep(draft.step))}
          data-testid="step-back"
        >
          {t('videoGeneration.actions.back')}
        </button>
        {blocker && blocker !== 'last' && !busy ? (
          <span className="vg-muted vg-footer__hint" data-testid="step-blocker">
            {t(`videoGeneration.blockers.${blocker}`)}
          </span>
        ) : null}
        <span className="vg-footer__spacer" />
        {draft.step === 'select' ? (
          <button
            type="button"
            className="btn btn--ghost vg-touch"
            disabled={facts.selectedImages === 0 || needsNetwork}
            onClick={() => void runs.runVideoPrompts(true)}
            data-testid="quick-mode"
          >
            {t('videoGeneration.actions.quick')}
          </button>
        ) : null}
        {draft.step === 'complete' ? (
          <button type="button" className="btn btn--primary vg-touch" onClick={reset} data-testid="start-over">
            {t('videoGeneration.actions.startOver')}
          </button>
        ) : !['images', 'videoPrompts', 'videos'].includes(draft.step) ? (
          <button
            type="button"
            className="btn btn--primary vg-touch"
            disabled={busy || (needsNetwork && draft.step !== 'info')}
            onClick={onNext}
            data-testid="step-next"
          >
            {nextLabel[draft.step] ?? t('videoGeneration.actions.next')}
          </button>
        ) : null}
      </footer>
    </div>
  );
}
