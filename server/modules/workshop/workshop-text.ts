// The workshop's text as the enhancer writes it: kept in the item's row (result_text, while it is
// processing) and published as the analysis's text events, each piece after the row holds it. A
// stream that connects mid-run reads the row, then carries on with the events: every piece
// published after it subscribed is one the row may already hold, never one it lacks, so the
// reader sees the whole text once. One row write at a time; pieces that arrive meanwhile go out
// together with the next write, so a fast stream costs fewer writes than it has pieces.
import type { GenerationEvent } from '../generation/job-topics.js';

export type TextEvent = Extract<GenerationEvent, { type: 'text' | 'text_reset' }>;

export interface TextRelay {
  /** The next piece of this attempt's text. */
  push(chunk: string): void;
  /** A new attempt starts: the text so far is void (the row is emptied, then readers are told). */
  reset(): void;
  /** Resolves once every piece is written and published; rejects with the first write's failure. */
  settle(): Promise<void>;
}

export function createTextRelay(save: (text: string) => Promise<void>, publish: (event: TextEvent) => void): TextRelay {
  let text = '';
  let published = 0;
  /** Which attempt the text belongs to: a write queued for an earlier one publishes nothing new. */
  let attempt = 0;
  let flushQueued = false;
  let failure: unknown;
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (step: () => Promise<void>) => {
    chain = chain
      .then(() => (failure === undefined ? step() : undefined))
      .catch((error: unknown) => {
        failure ??= error;
      });
  };
  const flush = async (of: number) => {
    if (of !== attempt) return;
    flushQueued = false;
    const upTo = text.length;
    if (upTo <= published) return;
    const from = published;
    const piece = text.slice(from, upTo);
    await save(text.slice(0, upTo));
    publish({ type: 'text', content: piece, offset: from });
    // A reset during the write starts its attempt from 0; it is queued after this step.
    if (of === attempt) published = upTo;
  };
  return {
    push(chunk) {
      if (!chunk) return;
      text += chunk;
      if (flushQueued) return;
      flushQueued = true;
      const of = attempt;
      enqueue(() => flush(of));
    },
    reset() {
      attempt += 1;
      text = '';
      published = 0;
      flushQueued = false;
      enqueue(async () => {
        await save('');
        publish({ type: 'text_reset' });
      });
    },
    async settle() {
      await chain;
      if (failure !== undefined) throw failure;
    },
  };
}
