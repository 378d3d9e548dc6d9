// Gemini wire-format pieces for the adapter tests.
import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import type { RetryPolicy } from '../../../../server/providers/gemini/gemini-retry.js';
import { pieces, sendJson, type Handler, type RecordedRequest } from '../provider-test-server.js';

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

/** A whole streamed text answer: `text` in pieces of `size` characters, then the STOP. */
export function geminiTextStream(text: string, size: number): unknown[] {
  return [...pieces(text, size).map((piece) => geminiChunk(piece)), geminiChunk('', 'STOP')];
}

/** A GenerateContentResponse with inline parts (images, text). */
export function geminiParts(parts: unknown[], finishReason = 'STOP') {
  return { candidates: [{ content: { role: 'model', parts }, index: 0, finishReason }], modelVersion: 'gemini-image-test-001' };
}

/** A google.rpc.Status error body. */
export function rpcError(code: number, status: string, message: string, details: unknown[] = []) {
  return { error: { code, status, message, ...(details.length > 0 ? { details } : {}) } };
}

/** Gemini's documented limit for a request with inline data: 20 MB in all. */
export const GEMINI_REQUEST_LIMIT = 20 * 1024 * 1024;

/** A route that answers as Gemini does past the request limit (400 INVALID_ARGUMENT), else as `handler`. */
export function withRequestLimit(handler: Handler): Handler {
  return (request: RecordedRequest, response: ServerResponse) => {
    if (request.body.length > GEMINI_REQUEST_LIMIT) {
      sendJson(response, 400, rpcError(400, 'INVALID_ARGUMENT', `Request payload size exceeds the limit: ${GEMINI_REQUEST_LIMIT} bytes.`));
      return;
    }
    return handler(request, response);
  };
}

/** A fabric scan as a large PNG: fine noise does not compress, so 2048 x 1400 is about 8.6 MB. */
export function largeScanPng(seedColour = '#7f7f7f', width = 2048, height = 1400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: seedColour, noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}
