// Step four: the collection's settings, one set for every fabric: its name, the image prompt (typed,
// or taken from prompt management), how many candidates each fabric gets and how one is picked,
// whether the run stops for the person's review after the pick or goes on to the videos, and the
// videos' aspect, camera moves (up to 3), duration and resolution.
import { useTranslation } from 'react-i18next';
import type { CollectionSettings } from '../../../../../shared/collections/collection-types';
import {
  MAX_COLLECTION_CANDIDATES,
  VIDEO_ASPECTS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../../../../../shared/collections/collection-types';
import { CAMERA_MOVES, MAX_CAMERA_MOVES } from '../../../../../shared/generation/camera-moves';
import { usePrompts } from '../../api/image-prompts';
import {
  MAX_COLLECTION_NAME_LENGTH,
  MAX_IMAGE_PROMPT_LENGTH,
  toggleCamera,
  type SettingsProblem,
} from '../../model/collection-settings';
import { LabelledSelect } from './labelled-select';

interface Props {
  name: string;
  settings: CollectionSettings;
  problems: readonly SettingsProblem[];
  onName(name: string): void;
  onChange(settings: CollectionSettings): void;
}

const CANDIDATE_COUNTS = Array.from({ length: MAX_COLLECTION_CANDIDATES }, (_, i) => i + 1);

export function SettingsForm({ name, settings, problems, onName, onChange }: Props) {
  const { t } = useTranslation();
  const prompts = usePrompts();
  const savedPrompt = prompts.data?.find((p) => p.type === 'image')?.content ?? null;
  const problemOf = (field: SettingsProblem['field']) => {
    const p = problems.find((x) => x.field === field);
    return p ? t(`collections.settings.problems.${p.field}.${p.kind}`, { max: 'max' in p ? p.max : undefined, min: 'min' in p ? p.min : undefined }) : null;
  };
  const video = settings.video;
  const setVideo = (change: Partial<CollectionSettings['video']>) => onChange({ ...settings, video: { ...video, ...change } });
  const nameError = problemOf('name');
  const promptError = problemOf('image_prompt');

  return (
    <section className="ci-card" aria-labelledby="ci-settings-title" data-testid="collection-settings">
      <h2 id="ci-settings-title">{t('collections.settings.title')}</h2>
      <div className="ci-grid">
        <div className="ci-field ci-field--wide">
          <label htmlFor="ci-name">{t('collections.settings.name')}</label>
          <input
            id="ci-name"
            className="input"
            value={name}
            maxLength={MAX_COLLECTION_NAME_LENGTH + 20}
            aria-invalid={!!nameError}
            aria-describedby={nameError ? 'ci-name-error' : undefined}
            data-testid="collection-name"
            onChange={(event) => onName(event.target.value)}
          />
          {nameError && (
            <p className="ci-field__error" id="ci-name-error">
              {nameError}
            </p>
          )}
        </div>

        <div className="ci-field ci-field--wide">
          <label htmlFor="ci-prompt">{t('collections.settings.imagePrompt')}</label>
          <textarea
            id="ci-prompt"
            className="input ci-textarea"
            rows={4}
            value={settings.image_prompt}
            aria-invalid={!!promptError}
            aria-describedby="ci-prompt-hint"
            data-testid="collection-prompt"
            onChange={(event) => onChange({ ...settings, image_prompt: event.target.value })}
          />
          <div className="ci-field__row" id="ci-prompt-hint">
            <span className={promptError ? 'ci-field__error' : 'ci-muted'}>
              {promptError ??
                t('collections.settings.promptLength', { count: settings.image_prompt.trim().length, max: MAX_IMAGE_PROMPT_LENGTH })}
            </span>
            <button
              type="button"
              className="btn btn--ghost ci-small"
              disabled={!savedPrompt || savedPrompt === settings.image_prompt}
              data-testid="collection-prompt-saved"
              onClick={() => savedPrompt && onChange({ ...settings, image_prompt: savedPrompt })}
            >
              {prompts.isPending
                ? t('collections.settings.promptLoading')
                : savedPrompt
                  ? t('collections.settings.useSavedPrompt')
                  : t('collections.settings.noSavedPrompt')}
            </button>
          </div>
        </div>

        <LabelledSelect
          id="ci-candidates"
          label={t('collections.settings.candidates')}
          value={settings.candidates}
          options={CANDIDATE_COUNTS.map((n) => ({ value: n, label: String(n) }))}
          testId="collection-candidates"
          onChange={(candidates) => onChange({ ...settings, candidates })}
        />

        <fieldset className="ci-field ci-radios">
          <legend>{t('collections.settings.pickRule')}</legend>
          {(['score', 'model'] as const).map((rule) => (
            <label key={rule} className="ci-radio">
              <input
                type="radio"
                name="ci-pick-rule"
                value={rule}
                checked={settings.pick_rule === rule}
                onChange={() => onChange({ ...settings, pick_rule: rule })}
              />
              <span>{t(`collections.settings.pickRules.${rule}`)}</span>
            </label>
          ))}
        </fieldset>

        <fieldset className="ci-field ci-field--wide ci-radios">
          <legend>{t('collections.settings.afterPick')}</legend>
          {([true, false] as const).map((stop) => (
            <label key={String(stop)} className="ci-radio">
              <input
                type="radio"
                name="ci-after-pick"
                checked={settings.stop_for_review === stop}
                data-testid={stop ? 'collection-stop-review' : 'collection-run-videos'}
                onChange={() => onChange({ ...settings, stop_for_review: stop })}
              />
              <span>{t(stop ? 'collections.settings.stopForReview' : 'collections.settings.runToVideos')}</span>
            </label>
          ))}
        </fieldset>

        <LabelledSelect
          id="ci-aspect"
          label={t('collections.settings.aspect')}
          value={video.aspect}
          options={VIDEO_ASPECTS.map((aspect) => ({ value: aspect, label: t(`collections.settings.aspects.${aspect}`) }))}
          testId="collection-aspect"
          onChange={(aspect) => setVideo({ aspect })}
        />
        <LabelledSelect
          id="ci-duration"
          label={t('collections.settings.duration')}
          value={video.duration}
          options={VIDEO_DURATIONS.map((d) => ({ value: d, label: t('collections.settings.seconds', { count: d }) }))}
          testId="collection-duration"
          onChange={(duration) => setVideo({ duration })}
        />
        <LabelledSelect
          id="ci-resolution"
          label={t('collections.settings.resolution')}
          value={video.resolution}
          options={VIDEO_RESOLUTIONS.map((r) => ({ value: r, label: r }))}
          testId="collection-resolution"
          onChange={(resolution) => setVideo({ resolution })}
        />

        <fieldset className="ci-field ci-field--wide ci-camera">
          <legend>{t('collections.settings.camera', { max: MAX_CAMERA_MOVES })}</legend>
          <div className="ci-camera__moves">
            {CAMERA_MOVES.map((move) => {
              const on = video.camera.includes(move);
              return (
                <label key={move} className={`ci-chip${on ? ' is-on' : ''}`}>
                  <input
                    type="checkbox"
                    checked={on}
                    disabled={!on && video.camera.length >= MAX_CAMERA_MOVES}
                    onChange={() => setVideo({ camera: toggleCamera(video.camera, move) })}
                  />
                  <span>{t(`videoGeneration.camera.${move.replace(/\s+/g, '')}`)}</span>
                </label>
              );
            })}
          </div>
          {video.camera.length === 0 && <p className="ci-muted">{t('collections.settings.cameraNone')}</p>}
        </fieldset>
      </div>
    </section>
  );
}
