// Steps 3 and 4: the analysis as it streams with its progress, the six candidates as they arrive,
// selection, the image viewer (with the moments text to copy and save with its image), and the
// regeneration area.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROMPT_MAX_LENGTH } from '../../../../shared/prompts/prompt-rules';
import { ImageViewer } from '../../../components/image-viewer/image-viewer';
import { saveMomentsText } from '../../../lib/offline/moments-text';
import { currentUserKey } from '../../../lib/offline/user-key';
import { useSession } from '../../../lib/session/use-session';
import { isLocalPreview, type GeneratedImage } from '../model/generation-types';
import { toggle, type VideoDraft } from '../model/draft';
import type { DraftUpdate } from '../hooks/use-video-draft';
import type { StreamState } from '../model/run-state';
import { RunProgress } from './run-progress';
import { LocalPreviewBadge } from './local-preview-badge';

interface Props {
  draft: VideoDraft;
  update: DraftUpdate;
  analysis: StreamState;
  regen: StreamState;
  onCancelAnalysis: () => void;
  onRetryAnalysis: () => void;
  onRegenerate: (imageId: number, prompt: string) => void;
  onCancelRegen: (drop: boolean) => void;
}

export function CandidatesStep(props: Props) {
  const { draft, update, analysis, regen } = props;
  const { t } = useTranslation();
  const [viewing, setViewing] = useState<GeneratedImage | null>(null);
  const userKey = currentUserKey(useSession());

  /** The moments text goes with its image through the outbox (offline too); the draft keeps it. */
  async function saveMoments(imageId: number, text: string) {
    if (!userKey) return { status: 'refused' as const, message: t('errors.unauthorized') };
    const outcome = await saveMomentsText(userKey, { imageId, text });
    if (outcome.status !== 'refused') {
      const saved = text.trim() || null;
      update((d) => ({ ...d, candidates: d.candidates.map((c) => (c.id === imageId ? { ...c, moments_text: saved } : c)) }));
      setViewing((v) => (v && v.id === imageId ? { ...v, moments_text: saved } : v));
    }
    return outcome;
  }
  const [regenPrompt, setRegenPrompt] = useState('');
  const analysing = draft.step === 'images';
  const preview = draft.candidates.some(isLocalPreview) || /local preview/i.test(draft.analysisModel ?? '');
  const selected = draft.selectedImageIds;
  const regenSource = draft.candidates.find((c) => c.id === selected[0]);

  return (
    <div className="vg-stack">
      {preview ? <LocalPreviewBadge /> : null}
      {analysing ? (
        <RunProgress
          state={analysis}
          estimateKey="videoGeneration.estimate.analysis"
          onCancel={props.onCancelAnalysis}
          onRetry={props.onRetryAnalysis}
          testId="analysis-progress"
        />
      ) : null}
      <section className="vg-card" aria-labelledby="vg-analysis-title">
        <h2 id="vg-analysis-title">{t('videoGeneration.analysis.title')}</h2>
        <div className="vg-analysis" aria-live="polite" tabIndex={0} role="region" aria-labelledby="vg-analysis-title" data-testid="analysis-text">
          {draft.analysisText || <span className="vg-muted">{t('videoGeneration.analysis.waiting')}</span>}
        </div>
      </section>
      <section className="vg-card" aria-labelledby="vg-candidates-title">
        <div className="vg-row">
          <h2 id="vg-candidates-title">{t('videoGeneration.candidates.title', { count: draft.candidates.length })}</h2>
          <span className="vg-muted" data-testid="selected-count">
            {t('videoGeneration.candidates.selected', { count: selected.length })}
          </span>
        </div>
        {draft.candidatesNotice ? (
          <p className="vg-notice" role="status" data-testid="candidates-notice">
            {draft.candidatesNotice}
          </p>
        ) : null}
        {draft.candidates.length === 0 ? (
          <p className="vg-muted">{t('videoGeneration.candidates.empty')}</p>
        ) : (
          <ul className="vg-candidates">
            {draft.candidates.map((image) => {
              const on = selected.includes(image.id);
              return (
                <li key={image.id} className={`vg-candidate${on ? ' vg-candidate--on' : ''}`} data-testid="candidate" data-source={image.source}>
                  <button
                    type="button"
                    className="vg-candidate__image"
                    onClick={() => setViewing(image)}
                    aria-label={t('videoGeneration.candidates.open', { label: image.label ?? `#${image.id}` })}
                  >
                    {image.thumbnail_url || image.url ? <img src={image.thumbnail_url ?? image.url ?? ''} alt="" loading="lazy" /> : null}
                  </button>
                  <label className="vg-candidate__select">
                    <input
                      type="checkbox"
                      checked={on}
                      disabled={analysing}
                      onChange={() => update((d) => ({ ...d, selectedImageIds: toggle(d.selectedImageIds, image.id) }))}
                      data-testid="candidate-select"
                    />
                    <span>
                      {image.label ?? `#${image.id}`}
                      {image.source === 'regenerated' ? ` · ${t('videoGeneration.candidates.regenerated')}` : ''}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {!analysing && draft.candidates.length > 0 ? (
        <section className="vg-card" aria-labelledby="vg-regen-title" data-testid="regen-area">
          <h2 id="vg-regen-title">{t('videoGeneration.regen.title')}</h2>
          <p className="vg-muted">
            {regenSource
              ? t('videoGeneration.regen.from', { label: regenSource.label ?? `#${regenSource.id}` })
              : t('videoGeneration.regen.pickFirst')}
          </p>
          <label className="vg-field">
            <span>{t('videoGeneration.regen.prompt')}</span>
            <textarea
              className="input vg-textarea"
              rows={2}
              maxLength={PROMPT_MAX_LENGTH}
              value={regenPrompt}
              onChange={(e) => setRegenPrompt(e.target.value)}
              data-testid="regen-prompt"
            />
          </label>
          <div className="vg-actions">
            <button
              type="button"
              className="btn btn--primary vg-touch"
              disabled={!regenSource || !regenPrompt.trim()}
              onClick={() => regenSource && props.onRegenerate(regenSource.id, regenPrompt.trim())}
              data-testid="regen-start"
            >
              {t('videoGeneration.regen.start')}
            </button>
            <button type="button" className="btn btn--ghost vg-touch" disabled={!regen.running} onClick={() => props.onCancelRegen(false)} data-testid="regen-cancel">
              {t('videoGeneration.actions.cancel')}
            </button>
            <button
              type="button"
              className="btn btn--ghost vg-touch"
              onClick={() => {
                props.onCancelRegen(true);
                setRegenPrompt('');
                update((d) => {
                  const kept = d.candidates.filter((c) => c.source !== 'regenerated');
                  return { ...d, candidates: kept, selectedImageIds: d.selectedImageIds.filter((id) => kept.some((c) => c.id === id)) };
                });
              }}
              data-testid="regen-clear"
            >
              {t('videoGeneration.regen.clear')}
            </button>
            <button type="button" className="btn btn--ghost vg-touch" onClick={() => update((d) => ({ ...d, selectedImageIds: [] }))} data-testid="deselect-all">
              {t('videoGeneration.regen.deselect')}
            </button>
          </div>
          {regen.running || regen.error ? <RunProgress state={regen} estimateKey="videoGeneration.estimate.analysis" testId="regen-progress" /> : null}
        </section>
      ) : null}

      {viewing ? (
        <ImageViewer
          open
          src={viewing.url ?? ''}
          alt={viewing.label ?? `#${viewing.id}`}
          title={viewing.label ?? undefined}
          fileName={`image-${viewing.id}.png`}
          onClose={() => setViewing(null)}
          copyText={viewing.moments_text ?? ''}
          onSaveCopyText={(text) => saveMoments(viewing.id, text)}
        />
      ) : null}
    </div>
  );
}
