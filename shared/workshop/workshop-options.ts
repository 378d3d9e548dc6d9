// What a workshop item may be and how its result may read (spec §3): the server validates an item
// against these, the PWA offers them as choices.
export const WORKSHOP_TYPES = ['text', 'image', 'mixed'] as const;
export type WorkshopType = (typeof WORKSHOP_TYPES)[number];

export const ENHANCE_STYLES = ['natural', 'creative', 'professional', 'artistic'] as const;
export type EnhanceStyle = (typeof ENHANCE_STYLES)[number];
