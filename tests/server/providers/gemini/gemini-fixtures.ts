// Gemini wire-format pieces for the adapter tests.
import type { RetryPolicy } from '../../../../server/providers/gemini/gemini-retry.js';

export { expectProviderError } from '../provider-assertions.js';
export { SAMPLE_ANALYSIS, SAMPLE_ENHANCED_TEXT, SAMPLE_VIDEO_PROMPTS } from '../sample-answers.js';

/** Retries as in production, waits short enough for tests. */
export const TEST_RETRY: RetryPolicy = { retries: 2, maxWaitMs: 1_000, fallbackWaitMs: 10 };

/** One GenerateContentResponse carrying a piece of text. */
export function geminiChunk(text: string, finishReason?: string) {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    modelVersion: 'gemini-text-test-001',
  };
}

/** A GenerateContentResponse with inline parts (images, text). */
export function geminiParts(parts: unknown[], finishReason = 'STOP') {
  return { candidates: [{ content: { role: 'model', parts }, index: 0, finishReason }], modelVersion: 'gemini-image-test-001' };
}

/** A google.rpc.Status error body. */
export function rpcError(code: number, status: string, message: string, details: unknown[] = []) {
  return { error: { code, status, message, ...(details.length > 0 ? { details } : {}) } };
}
