// A text-model request whose answer is JSON by responseSchema: whole (generateJson), or streamed
// (streamJson) so what is being written can be shown as it comes; a cut stream is asked again
// after telling the reader to drop what it showed.
import type { Part } from '@google/genai';
import type { z } from 'zod';
import { parseJsonAnswer } from '../shared/answer-schemas.js';
import type { GeminiContext } from './gemini-context.js';
import { toGeminiError } from './gemini-errors.js';
import { ProviderError } from '../capabilities.js';
import { throwIfCancelled } from '../shared/abort.js';
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

/** As generateJson, by streamGenerateContent: onJson gets the JSON text piece by piece. */
export async function streamJson<T>(
  context: GeminiContext,
  request: JsonRequest<T>,
  onJson: (chunk: string) => void,
  onRestart?: () => void,
): Promise<{ value: T; model: string }> {
  const responseSchema = geminiResponseSchema(request.schema);
  let streamed = false;
  const attempt = async () => {
    let json = '';
    let finishReason: string | undefined;
    let model = context.textModel;
    try {
      const stream = await context.ai.models.generateContentStream({
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
      for await (const chunk of stream) {
        checkPromptFeedback(chunk);
        const text = textOf(chunk);
        if (text) {
          json += text;
          streamed = true;
          onJson(text);
        }
        finishReason = finishReasonOf(chunk) ?? finishReason;
        model = chunk.modelVersion ?? model;
      }
    } catch (error) {
      throw toGeminiError(error, request.signal);
    }
    throwIfCancelled(request.signal, 'gemini');
    if (finishReason === undefined) throw new ProviderError('unavailable', `Gemini's ${request.what} stream ended before it was complete`, { provider: 'gemini' });
    checkFinishReason(finishReason, request.what);
    return { value: request.read(json), model };
  };
  return withRetry(attempt, context.retry, request.signal, {
    mayRetry: () => !streamed || onRestart !== undefined,
    onRetry: () => {
      if (!streamed) return;
      streamed = false;
      onRestart?.();
    },
  });
}
