// OpenAI wire-format pieces for the adapter tests (chat.completion, chat.completion.chunk, error bodies).
import { pieces } from '../provider-test-server.js';
export { expectProviderError } from '../provider-assertions.js';
export { SAMPLE_ANALYSIS, SAMPLE_ENHANCED_TEXT, SAMPLE_VIDEO_PROMPTS } from '../sample-answers.js';

export function chatChunk(delta: { content?: string; refusal?: string }, finishReason: string | null = null, model = 'test-chat-model-2025') {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_750_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** A whole streamed chat answer: `text` in pieces of `size` characters, the stop, then [DONE]. */
export function chatTextStream(text: string, size: number): unknown[] {
  return [...pieces(text, size).map((piece) => chatChunk({ content: piece })), chatChunk({}, 'stop'), '[DONE]'];
}

export function chatCompletion(content: string | null, finishReason = 'stop', refusal: string | null = null) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_750_000_000,
    model: 'test-chat-model-2025',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal }, finish_reason: finishReason, logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

export function openAiError(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

/** Every key of a JSON Schema, recursively. */
export function schemaKeys(node: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => schemaKeys(n, keys));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      keys.add(key);
      schemaKeys(value, keys);
    }
  }
  return keys;
}
