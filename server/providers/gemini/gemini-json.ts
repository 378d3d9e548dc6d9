// A non-streamed text-model request whose answer is JSON by responseSchema.
import type { Part } from '@google/genai';
import type { z } from 'zod';
import { parseJsonAnswer } from '../shared/answer-schemas.js';
import type { GeminiContext } from './gemini-context.js';
import { toGeminiError } from './gemini-errors.js';
import { checkFinishReason, checkPromptFeedback, finishReasonOf, textOf } from './gemini-response.js';
import { withRetry } from './gemini-retry.js';
import { geminiResponseSchema } from './gemini-schema.js';

export interface JsonRequest<T> {
  systemInstruction: string;
  parts: Part[];
  /** Sent as responseSchema. */
  schema: z.ZodType;
  /** Reads the parsed JSON (may be a looser schema than the one sent). */
  read: (json: string) => T;
  temperature: number;
  signal: AbortSignal;
  what: string;
}

export async function generateJson<T>(context: GeminiContext, request: JsonRequest<T>): Promise<{ value: T; model: string }> {
  const responseSchema = geminiResponseSchema(request.schema);
  return withRetry(
    async () => {
      let response;
      try {
        response = await context.ai.models.generateContent({
          model: context.textModel,
          contents: [{ role: 'user', parts: request.parts }],
          config: {
            systemInstruction: request.systemInstruction,
            responseMimeType: 'application/json',
            responseSchema,
            temperature: request.temperature,
            abortSignal: request.signal,
          },
        });
      } catch (error) {
        throw toGeminiError(error, request.signal);
      }
      checkPromptFeedback(response);
      checkFinishReason(finishReasonOf(response), request.what);
      return { value: request.read(textOf(response)), model: response.modelVersion ?? context.textModel };
    },
    context.retry,
    request.signal,
  );
}

export function readJson<T>(schema: z.ZodType<T>, what: string): (json: string) => T {
  return (json) => parseJsonAnswer(schema, json, 'gemini', what);
}
