// A new draft pre-filled from a history item: the fabric form (a text that equals a preset's label
// in the current language becomes that preset, any other text "other" with those words), the
// prompt and description, the source image as the one selected candidate, and a video's settings.
import type { CameraMove } from '../../../../shared/generation/camera-moves';
import { emptyDraft, type VideoDraft } from './draft';
import { CHOICE_FIELDS, CHOICE_FIELD_NAMES, LONG_TEXT_FIELDS, OTHER, SHORT_TEXT_FIELDS, type ChoiceField } from '../../../../shared/fabric/fabric-fields';
import { emptyFabricForm, type FabricForm } from './fabric-form';
import { ASPECTS, DEFAULT_VIDEO_SETTINGS, RESOLUTIONS, type GeneratedImage, type VideoSettings } from './generation-types';

export function formFromFabric(fabric: Partial<Record<string, string>>, presetLabel: (field: ChoiceField, key: string) => string): FabricForm {
  const form = emptyFabricForm();
  for (const field of [...SHORT_TEXT_FIELDS, ...LONG_TEXT_FIELDS]) {
    const value = fabric[field];
    if (typeof value === 'string') form.text[field] = value;
  }
  for (const field of CHOICE_FIELD_NAMES) {
    const value = fabric[field]?.trim();
    if (!value) continue;
    const preset = CHOICE_FIELDS[field].find((key) => presetLabel(field, key).toLowerCase() === value.toLowerCase());
    form.choices[field] = preset ? { choice: preset, custom: '' } : { choice: OTHER, custom: value };
  }
  return form;
}

export function settingsFromVideo(video: {
  kind: string;
  last_image_id: number | null;
  aspect: string;
  duration: number;
  resolution: string;
  camera: CameraMove[];
}): VideoSettings {
  return {
    kind: video.kind === 'first-last-frame' && video.last_image_id !== null ? 'first-last-frame' : 'standard',
    lastImageId: video.last_image_id,
    aspect: ASPECTS.find((a) => a === video.aspect) ?? DEFAULT_VIDEO_SETTINGS.aspect,
    duration: video.duration === 10 ? 10 : 6,
    resolution: RESOLUTIONS.find((r) => r === video.resolution) ?? DEFAULT_VIDEO_SETTINGS.resolution,
    camera: video.camera.slice(0, 3),
  };
}

export function draftFromHistory(
  userKey: string,
  source: { image: GeneratedImage; fabric: Partial<Record<string, string>>; prompt: string | null; description: string | null },
  presetLabel: (field: ChoiceField, key: string) => string,
  settings?: VideoSettings,
): VideoDraft {
  const draft = emptyDraft(userKey);
  return {
    ...draft,
    step: 'select',
    furthest: 'select',
    form: formFromFabric(source.fabric, presetLabel),
    description: source.description ?? '',
    promptSelected: Boolean(source.prompt),
    promptText: source.prompt ?? '',
    candidates: [source.image],
    selectedImageIds: [source.image.id],
    settings: settings ? { [source.image.id]: settings } : {},
  };
}
