// What Start keeps of a collection until the server has it: the ready rows as the create call's
// items (with the overrides their sheet gives them), each naming its images by their place in the
// pending image list (the uploads' ids are not known yet), and the create call's body once every
// image is up. Pure: the page passes the vocabulary and the preset labels in the collection's
// language.
import type {
  CollectionSettings,
  CreateCollection,
  CreateCollectionItem,
} from '../../../../shared/collections/collection-types';
import type { ChoiceField } from '../../../../shared/fabric/fabric-fields';
import { OTHER } from '../../../../shared/fabric/fabric-fields';
import type { Language } from '../../../../shared/i18n/languages';
import { rowFabric } from '../../../lib/collections/collection-check';
import { rowOverrides } from '../../../lib/collections/override-values';
import type { Vocabulary } from '../../../lib/collections/vocabulary';
import type { PendingCollectionItem } from '../../../lib/db/collection-draft-store';
import { readyRows, type CollectionDraft } from './collection-draft';

/** One item before its images are up: model and pattern images as indexes into the pending images. */
export type PendingItem = PendingCollectionItem;

export interface PendingPlan {
  items: PendingItem[];
  /** The collection's image indexes (into the import's image list) to upload, in upload order. */
  images: number[];
}

export type PresetLabel = (field: ChoiceField, key: string) => string;

/** The ready rows as items; only the images those rows use are uploaded, each once. */
export function planPendingCollection(
  vocabulary: Vocabulary,
  draft: CollectionDraft,
  presetLabel: PresetLabel,
): PendingPlan {
  const images: number[] = [];
  const placeOf = new Map<number, number>();
  const place = (image: number) => {
    let at = placeOf.get(image);
    if (at === undefined) {
      at = images.length;
      images.push(image);
      placeOf.set(image, at);
    }
    return at;
  };
  const items = readyRows(draft).map((index): PendingItem => {
    const row = draft.collection.rows[index]!;
    const fabric = rowFabric(vocabulary, draft.collection, index);
    const fields: Record<string, string> = {};
    for (const [field, value] of Object.entries(fabric.text)) if (value) fields[field] = value;
    for (const [field, value] of Object.entries(fabric.choices) as [ChoiceField, { choice: string; custom: string }][]) {
      const text = value.choice === OTHER ? value.custom : presetLabel(field, value.choice);
      if (text) fields[field] = text;
    }
    const name = fields.fabric_name;
    const overrides = rowOverrides(vocabulary.overrides, draft.collection.mapping, row.cells);
    return {
      code: fabric.code,
      ...(name ? { name } : {}),
      fabric: fields,
      ...(overrides ? { overrides } : {}),
      model_images: row.images.filter((m) => m.role === 'model').map((m) => place(m.image)),
      pattern_images: row.images.filter((m) => m.role === 'pattern').map((m) => place(m.image)),
    };
  });
  return { items, images };
}

export class UploadsMissing extends Error {
  override readonly name = 'UploadsMissing';
  constructor(readonly missing: number[]) {
    super(`images not uploaded yet: ${missing.join(', ')}`);
  }
}

/** The create call's body; throws UploadsMissing when an image an item names has no upload id yet. */
export function createCollectionBody(input: {
  clientCollectionId: string;
  name: string;
  language: Language;
  settings: CollectionSettings;
  items: readonly PendingItem[];
  uploadIds: readonly (string | null | undefined)[];
}): CreateCollection {
  const missing = new Set<number>();
  const idsOf = (places: readonly number[]) =>
    places.map((at) => {
      const id = input.uploadIds[at];
      if (!id) missing.add(at);
      return id ?? '';
    });
  const items = input.items.map(({ model_images, pattern_images, ...item }): CreateCollectionItem => ({
    ...item,
    model_upload_ids: idsOf(model_images),
    pattern_upload_ids: idsOf(pattern_images),
  }));
  if (missing.size > 0) throw new UploadsMissing([...missing].sort((a, b) => a - b));
  return {
    client_collection_id: input.clientCollectionId,
    name: input.name.trim(),
    language: input.language,
    settings: { ...input.settings, image_prompt: input.settings.image_prompt.trim() },
    items,
  };
}
