// Prompt management's domain (spec §3, §5): three types, one prompt each, text of 1..1000 characters.
export const PROMPT_TYPES = ['image', 'video', 'moments'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
export const PROMPT_MAX_LENGTH = 1000;

export interface Prompt {
  id: number;
  type: PromptType;
  content: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

export type PromptAction = 'create' | 'update' | 'delete';

/** What an outbox item of prompt management remembers: enough to show and to edit it again. */
export interface PromptChange {
  action: PromptAction;
  type: PromptType;
  /** The user's text (create/update); kept when the server refuses it. */
  content?: string;
}

/** The i18n key of the first problem with the text, or null when it may be saved. */
export function validatePromptContent(content: string): 'prompts.contentRequired' | 'prompts.contentTooLong' | null {
  if (content.trim().length === 0) return 'prompts.contentRequired';
  if (content.length > PROMPT_MAX_LENGTH) return 'prompts.contentTooLong';
  return null;
}

export function isPromptType(value: unknown): value is PromptType {
  return typeof value === 'string' && (PROMPT_TYPES as readonly string[]).includes(value);
}
