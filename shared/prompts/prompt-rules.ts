// Prompt management's rules (spec §3, §5): three types, one prompt each, text of at most 1000
// characters (UTF-16 units, as the browser counts). The server enforces them, the PWA checks them
// before it queues a change. The same 1000 (spec §9's "prompt text") bounds the video workflow's
// prompts and description: the generation forms refuse longer ones, the PWA's fields stop there.
export const PROMPT_TYPES = ['image', 'video', 'moments'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
export const PROMPT_MAX_LENGTH = 1000;
