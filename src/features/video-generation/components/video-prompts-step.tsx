// Steps 5 and 6: three prompts per selected image as they stream in, editable and selectable, and
// per image the video settings: standard or first-last-frame (last frame from the candidates),
// aspect, camera moves (at most 3), duration and resolution.
import { useTranslation } from 'react-i18next';
import { toggle, type VideoDraft } from '../model/draft';
import {
  ASPECTS,
  CAMERA_MOVES,
  DEFAULT_VIDEO_SETTINGS,
  DURATIONS,
  MAX_CAMERA_MOVES,
  RESOLUTIONS,
  type VideoSettings,
} from '../model/generation-types';
import type { DraftUpdate } from '../hooks/use-video-draft';
import type { StreamState } from '../model/run-state';
import { RunProgress } from './run-progress';

interface Props {
  draft: VideoDraft;
  update: DraftUpdate;
  prompts: StreamState;
  /** Each image's prompts as they are written, until the saved ones arrive. */
  drafts?: Record<number, string[]>;
  onRetry: () => void;
}

export function VideoPromptsStep({ draft, update, prompts, drafts = {}, onRetry }: Props) {
  const { t } = useTranslation();
  const streaming = draft.step === 'videoPrompts';
  const setSettings = (imageId: number, patch: Partial<VideoSettings>) =>
    update((d) => ({
      ...d,
      settings: { ...d.settings, [imageId]: { ...(d.settings[imageId] ?? DEFAULT_VIDEO_SETTINGS), ...patch } },
    }));

  return (
    <div className="vg-stack">
      {streaming ? <RunProgress state={prompts} estimateKey="videoGeneration.estimate.prompts" onRetry={onRetry} testId="prompts-progress" /> : null}
      {draft.selectedImageIds.map((imageId) => {
        const image = draft.candidates.find((c) => c.id === imageId);
        const list = draft.videoPrompts.filter((p) => p.imageId === imageId);
        const s = draft.settings[imageId] ?? DEFAULT_VIDEO_SETTINGS;
        const error = draft.promptErrors[imageId];
        return (
          <section key={imageId} className="vg-card vg-image-prompts" data-testid="image-prompts" aria-label={image?.label ?? `#${imageId}`}>
            <div className="vg-image-prompts__head">
              {image?.thumbnail_url ? <img src={image.thumbnail_url} alt="" /> : null}
              <h2>{image?.label ?? `#${imageId}`}</h2>
            </div>
            {error ? (
              <p className="vg-error" role="alert">
                {error}
              </p>
            ) : null}
            {list.length === 0 && !error && (drafts[imageId] ?? []).some(Boolean) ? (
              <ol className="vg-prompt-list" aria-live="polite" data-testid="prompt-drafts">
                {(drafts[imageId] ?? []).map((text, i) => (
                  <li key={i} className="vg-prompt vg-prompt--draft">
                    <span className="vg-muted">{t('videoGeneration.videoPrompts.option', { n: i + 1 })}</span>
                    <p>{text}</p>
                  </li>
                ))}
              </ol>
            ) : list.length === 0 && !error ? (
              <p className="vg-muted">{t('videoGeneration.videoPrompts.waiting')}</p>
            ) : null}
            <ol className="vg-prompt-list">
              {list.map((p, i) => {
                const on = draft.selectedPromptIds.includes(p.id);
                return (
                  <li key={p.id} className={`vg-prompt${on ? ' vg-prompt--on' : ''}`}>
                    <label className="vg-choice">
                      <input
                        type="checkbox"
                        checked={on}
                        disabled={streaming}
                        onChange={() => update((d) => ({ ...d, selectedPromptIds: toggle(d.selectedPromptIds, p.id) }))}
                        data-testid="video-prompt-select"
                      />
                      <span>{t('videoGeneration.videoPrompts.option', { n: i + 1 })}</span>
                    </label>
                    <textarea
                      className="input vg-textarea"
                      rows={3}
                      maxLength={2000}
                      aria-label={t('videoGeneration.videoPrompts.edit', { n: i + 1 })}
                      value={p.text}
                      onChange={(e) =>
                        update((d) => ({
                          ...d,
                          videoPrompts: d.videoPrompts.map((x) => (x.id === p.id ? { ...x, text: e.target.value, dirty: true } : x)),
                        }))
                      }
                      data-testid="video-prompt-text"
                    />
                  </li>
                );
              })}
            </ol>
            <div className="vg-settings">
              <label className="vg-field">
                <span>{t('videoGeneration.settings.kind')}</span>
                <select
                  className="input"
                  value={s.kind}
                  onChange={(e) => setSettings(imageId, { kind: e.target.value === 'first-last-frame' ? 'first-last-frame' : 'standard' })}
                  data-testid="setting-kind"
                >
                  <option value="standard">{t('videoGeneration.settings.standard')}</option>
                  <option value="first-last-frame">{t('videoGeneration.settings.firstLast')}</option>
                </select>
              </label>
              {s.kind === 'first-last-frame' ? (
                <label className="vg-field">
                  <span>{t('videoGeneration.settings.lastFrame')}</span>
                  <select
                    className="input"
                    value={s.lastImageId ?? ''}
                    onChange={(e) => setSettings(imageId, { lastImageId: e.target.value ? Number(e.target.value) : null })}
                    data-testid="setting-last-frame"
                  >
                    <option value="">{t('videoGeneration.settings.chooseLast')}</option>
                    {draft.candidates
                      .filter((c) => c.id !== imageId)
                      .map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.label ?? `#${c.id}`}
                        </option>
                      ))}
                  </select>
                </label>
              ) : null}
              <label className="vg-field">
                <span>{t('videoGeneration.settings.aspect')}</span>
                <select className="input" value={s.aspect} onChange={(e) => setSettings(imageId, { aspect: ASPECTS.find((a) => a === e.target.value) ?? 'auto' })} data-testid="setting-aspect">
                  {ASPECTS.map((a) => (
                    <option key={a} value={a}>
                      {t(`videoGeneration.settings.aspects.${a}`)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="vg-field">
                <span>{t('videoGeneration.settings.duration')}</span>
                <select className="input" value={s.duration} onChange={(e) => setSettings(imageId, { duration: Number(e.target.value) === 10 ? 10 : 6 })} data-testid="setting-duration">
                  {DURATIONS.map((d) => (
                    <option key={d} value={d}>
                      {t('videoGeneration.settings.seconds', { count: d })}
                    </option>
                  ))}
                </select>
              </label>
              <label className="vg-field">
                <span>{t('videoGeneration.settings.resolution')}</span>
                <select
                  className="input"
                  value={s.resolution}
                  onChange={(e) => setSettings(imageId, { resolution: RESOLUTIONS.find((r) => r === e.target.value) ?? '768P' })}
                  data-testid="setting-resolution"
                >
                  {RESOLUTIONS.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </label>
              <fieldset className="vg-camera">
                <legend>{t('videoGeneration.settings.camera', { max: MAX_CAMERA_MOVES })}</legend>
                {CAMERA_MOVES.map((move) => {
                  const on = s.camera.includes(move);
                  return (
                    <label key={move} className={`vg-chip${on ? ' vg-chip--on' : ''}`}>
                      <input
                        type="checkbox"
                        checked={on}
                        disabled={!on && s.camera.length >= MAX_CAMERA_MOVES}
                        onChange={() => setSettings(imageId, { camera: on ? s.camera.filter((m) => m !== move) : [...s.camera, move] })}
                      />
                      <span>{t(`videoGeneration.camera.${move.replace(/\s+/g, '')}`)}</span>
                    </label>
                  );
                })}
              </fieldset>
            </div>
          </section>
        );
      })}
    </div>
  );
}
