// What each of the three cards shows: the server's prompt as last loaded, overlaid with the
// user's changes still in the outbox (pending) or refused by the server (kept with its message).
import type { OutboxRecord } from '../../../lib/db/schema';
import { isQueuedPayload } from '../../../lib/offline/queued-request';
import { PROMPT_TYPES, isPromptType, type Prompt, type PromptChange, type PromptType } from './prompt';

export const PROMPT_OUTBOX_KIND = 'prompt';

export interface PromptCard {
  type: PromptType;
  /** The prompt as the server last said (possibly from the offline cache). */
  saved: Prompt | undefined;
  /** The content the card shows: the newest pending change wins over the saved one. */
  content: string | undefined;
  /** Queued changes not yet applied by the server, oldest first. */
  pending: PromptChange[];
  /** Changes the server refused on replay, with its message; the user's text is kept. */
  refused: { seq: number; change: PromptChange; message: string }[];
  /** A prompt exists (saved or about to be): the card offers edit, not create. */
  exists: boolean;
}

export function changeOf(record: OutboxRecord): PromptChange | null {
  if (record.kind !== PROMPT_OUTBOX_KIND || !isQueuedPayload(record.payload)) return null;
  const change = record.payload.change as Partial<PromptChange>;
  return isPromptType(change.type) && change.action ? (change as PromptChange) : null;
}

export function buildPromptCards(saved: readonly Prompt[] | undefined, outbox: readonly OutboxRecord[]): PromptCard[] {
  return PROMPT_TYPES.map((type) => {
    const prompt = saved?.find((p) => p.type === type);
    let exists = !!prompt;
    let content = prompt?.content;
    const pending: PromptChange[] = [];
    const refused: PromptCard['refused'] = [];
    for (const record of outbox) {
      const change = changeOf(record);
      if (!change || change.type !== type) continue;
      if (record.state === 'refused') {
        refused.push({ seq: record.seq ?? 0, change, message: record.error ?? '' });
        continue;
      }
      pending.push(change);
      if (change.action === 'delete') {
        exists = false;
        content = undefined;
      } else {
        exists = true;
        content = change.content;
      }
    }
    return { type, saved: prompt, content, pending, refused, exists };
  });
}
