// Prompt management's rules (spec §3, §5): three types, one prompt each, text of at most 1000
// characters (UTF-16 units, as the browser counts). The server enforces them, the PWA checks them
// before it queues a change.
export const PROMPT_TYPES = ['image', 'video', 'moments'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
export const PROMPT_MAX_LENGTH = 1000;
