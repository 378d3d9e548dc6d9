// A collection's settings and one row's overrides, as the create call takes them (zod, checked
// against the shared types so a field renamed on one side fails the other's type-check), and the
// settings one item runs with: its overrides merged over the collection's (the video's fields one
// by one).
import { z } from 'zod';
import {
  MAX_COLLECTION_CANDIDATES,
  PICK_RULES,
  type CollectionSettings,
  type CollectionVideoSettings,
  type ItemOverrides,
} from '../../../shared/collections/collection-types.js';
import { CAMERA_MOVES } from '../../../shared/generation/camera-moves.js';
import { MAX_PROMPT_LENGTH } from '../generation/form-fields.js';
import { VIDEO_RESOLUTIONS } from '../generation/videos/video-service.js';
import { parseObject } from '../generation/store/stored-json.js';

const videoFields = {
  kind: z.literal('standard'),
  aspect: z.enum(['square', 'vertical', 'horizontal', 'auto']),
  camera: z.array(z.enum(CAMERA_MOVES)).max(3, 'at most 3 camera moves'),
  duration: z.union([z.literal(6), z.literal(10)]),
  resolution: z.enum(VIDEO_RESOLUTIONS),
};

export const collectionVideoSchema = z.object(videoFields).strict().meta({ id: 'CollectionVideoSettings' });

export const collectionSettingsSchema = z
  .object({
    image_prompt: z.string().max(MAX_PROMPT_LENGTH, `image_prompt must be at most ${MAX_PROMPT_LENGTH} characters`),
    candidates: z.number().int().min(1).max(MAX_COLLECTION_CANDIDATES),
    pick_rule: z.enum(PICK_RULES),
    stop_for_review: z.boolean(),
    video: collectionVideoSchema,
  })
  .strict()
  .meta({ id: 'CollectionSettings' });

export const itemOverridesSchema = z
  .object({
    image_prompt: collectionSettingsSchema.shape.image_prompt.optional(),
    candidates: collectionSettingsSchema.shape.candidates.optional(),
    stop_for_review: z.boolean().optional(),
    video: z.object(videoFields).partial().strict().optional(),
  })
  .strict()
  .meta({ id: 'ItemOverrides' });

// The schemas answer exactly the shared shapes, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const settingsMatch: Same<z.output<typeof collectionSettingsSchema>, CollectionSettings> = true;
const videoMatch: Same<z.output<typeof collectionVideoSchema>, CollectionVideoSettings> = true;
const overridesMatch: Same<z.output<typeof itemOverridesSchema>, ItemOverrides> = true;
void [settingsMatch, videoMatch, overridesMatch];

/** The settings one item runs with: its overrides over the collection's, the video's field by field. */
export function mergedSettings(settings: CollectionSettings, overrides: ItemOverrides | null | undefined): CollectionSettings {
  if (!overrides) return settings;
  const defined = <T extends object>(o: T): Partial<T> =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const { video, ...rest } = overrides;
  return { ...settings, ...defined(rest), video: { ...settings.video, ...(video ? defined(video) : {}) } };
}

/** Stored settings read back (written by the create call, so they parse; a damaged row fails loudly). */
export function storedSettings(json: string): CollectionSettings {
  return collectionSettingsSchema.parse(parseObject(json));
}

export function storedOverrides(json: string | null): ItemOverrides | null {
  if (!json) return null;
  const parsed = itemOverridesSchema.safeParse(parseObject(json));
  return parsed.success ? parsed.data : null;
}
