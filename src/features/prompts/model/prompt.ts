// Prompt management's domain (spec §3, §5): three types, one prompt each, text of 1..1000 characters
// (the rules the server keeps too, in shared/), and a prompt as the server answers it.
import { PROMPT_MAX_LENGTH, PROMPT_TYPES, type PromptType } from '../../../../shared/prompts/prompt-rules';
import type { ApiSchema } from '../../../lib/api/api-types';

export { PROMPT_MAX_LENGTH, PROMPT_TYPES, type PromptType };

export type Prompt = ApiSchema<'Prompt'>;

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
