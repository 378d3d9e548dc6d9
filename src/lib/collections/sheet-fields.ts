// The columns a collection's sheet may have: the fabric code that keys a row, every field of spec
// §3's fabric information form, the columns that name a row's image files, and the optional
// columns by which one row overrides its collection's settings.
import {
  CHOICE_FIELD_NAMES,
  LONG_MAX,
  LONG_TEXT_FIELDS,
  SHORT_MAX,
  SHORT_TEXT_FIELDS,
  type ChoiceField,
} from '../../../shared/fabric/fabric-fields';
import { MAX_COLLECTION_IMAGES, MAX_COLLECTION_ITEMS } from '../../../shared/collections/collection-types';
import { PROMPT_MAX_LENGTH } from '../../../shared/prompts/prompt-rules';

export const KEY_FIELD = 'code';
export const IMAGE_FIELDS = ['model_images', 'pattern_images'] as const;
export type ImageField = (typeof IMAGE_FIELDS)[number];
/**
 * What a row may change of its collection's settings (the create call's ItemOverrides): the image
 * prompt, the candidates, the stop for review and the video's fields the settings form offers. The
 * pick rule is the collection's alone, and the video's kind has one value, so neither is a column.
 */
export const OVERRIDE_FIELDS = [
  'image_prompt',
  'candidates',
  'stop_for_review',
  'video_duration',
  'video_aspect',
  'video_resolution',
  'video_camera',
] as const;
export type OverrideField = (typeof OVERRIDE_FIELDS)[number];

/** In the order the template lists them: the overrides last, since most sheets leave them empty. */
export const SHEET_FIELDS = [
  KEY_FIELD,
  ...SHORT_TEXT_FIELDS,
  ...CHOICE_FIELD_NAMES,
  ...LONG_TEXT_FIELDS,
  ...IMAGE_FIELDS,
  ...OVERRIDE_FIELDS,
] as const;
export type SheetField = (typeof SHEET_FIELDS)[number];

export function isSheetField(value: unknown): value is SheetField {
  return typeof value === 'string' && (SHEET_FIELDS as readonly string[]).includes(value);
}

export function isImageField(field: SheetField | null | undefined): field is ImageField {
  return field === 'model_images' || field === 'pattern_images';
}

export function isChoiceField(field: SheetField | null | undefined): field is ChoiceField {
  return (CHOICE_FIELD_NAMES as readonly string[]).includes(field ?? '');
}

export function isOverrideField(field: SheetField | null | undefined): field is OverrideField {
  return (OVERRIDE_FIELDS as readonly string[]).includes(field ?? '');
}

/** A text field's length limit (spec §3's form, the image prompt's), or undefined for the other columns. */
export function textLimit(field: SheetField): number | undefined {
  if ((SHORT_TEXT_FIELDS as readonly string[]).includes(field) || isChoiceField(field)) return SHORT_MAX;
  if ((LONG_TEXT_FIELDS as readonly string[]).includes(field)) return LONG_MAX;
  if (field === 'image_prompt') return PROMPT_MAX_LENGTH;
  return undefined;
}

/** Image columns may repeat ("Model image 1", "Model image 2"); every other field takes one column. */
export function mayRepeat(field: SheetField): boolean {
  return isImageField(field);
}

// Bounds, checked before a sheet or an archive costs memory (issue: a collection is at most 500
// rows; its images and their archive are bounded too).
export const MAX_SHEET_BYTES = 5 * 1024 * 1024;
export const MAX_SHEET_ROWS = MAX_COLLECTION_ITEMS;
/** What an XLSX's XML may unpack to: 500 rows of the form's fields are a few megabytes. */
export const MAX_SHEET_UNPACKED_BYTES = 50 * 1024 * 1024;
export { MAX_COLLECTION_IMAGES };
export const MAX_ZIP_BYTES = 1024 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 6000;
export const MAX_ZIP_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024;
/** An entry that unpacks to more than this many times its packed size is a ZIP bomb (images barely compress). */
export const MAX_ZIP_RATIO = 100;
/** A weight in g/m² (spec §3) is a number in this range; the heaviest fabrics stay well under it. */
export const MIN_WEIGHT = 1;
export const MAX_WEIGHT = 2000;
