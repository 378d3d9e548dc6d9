// Spec §3's fabric information form, as both runtimes and every way into it (the workflow's form,
// a collection's sheet) read it: eight short fields, five of them a preset list with an "other"
// choice that opens custom text, and the free-text guidance fields, with their length limits.

export const CHOICE_FIELDS = {
  transparency: ['opaque', 'slightly', 'moderately', 'highly'],
  luster: ['none', 'soft', 'bright', 'mirror'],
  drape: ['strong', 'medium', 'stiff'],
  touch: ['soft', 'elastic', 'stiff', 'rough'],
  thickness: ['veryThick', 'regular', 'slightlyThin', 'extremelyThin'],
} as const;

export type ChoiceField = keyof typeof CHOICE_FIELDS;
export const CHOICE_FIELD_NAMES = Object.keys(CHOICE_FIELDS) as ChoiceField[];
export const OTHER = 'other';

export const SHORT_TEXT_FIELDS = ['fabric_name', 'composition', 'weight'] as const;
export const LONG_TEXT_FIELDS = [
  'suggested_uses',
  'scene',
  'model_guidance',
  'color_restrictions',
  'accessories',
  'style',
  'target_market',
  'selling_points',
  'remarks',
] as const;

export type ShortTextField = (typeof SHORT_TEXT_FIELDS)[number];
export type LongTextField = (typeof LONG_TEXT_FIELDS)[number];

export const SHORT_MAX = 100;
export const LONG_MAX = 500;

/** The weight's unit (spec §3: grams per square metre). */
export const WEIGHT_UNIT = 'g/m²';
