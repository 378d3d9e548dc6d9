// A chat completion whose answer is JSON by response_format json_schema: whole (chatJson), or
// streamed (chatJsonStreamed) so what is being written can be shown as it comes; a cut stream is
// asked again after telling the reader to drop what it showed.
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { ProviderError } from '../capabilities.js';
import { throwIfCancelled } from '../shared/abort.js';
import { retrying } from '../shared/retry.js';
import { checkCompletion } from './openai-answer.js';
import type { OpenAiContext } from './openai-context.js';
import { toOpenAiError } from './openai-errors.js';
import { jsonSchemaFormat } from './openai-schema.js';

export interface JsonChat<T> {
  name: string;
  system: string;
  content: ChatCompletionContentPart[];
  /** Sent as the response format. */
  schema: z.ZodType;
  read: (json: string) => T;
  temperature: number;
  signal: AbortSignal;
  what: string;
}

export async function chatJson<T>(context: OpenAiContext, request: JsonChat<T>): Promise<{ value: T; model: string }> {
  return retrying(() => chatJsonOnce(context, request), context.retry, request.signal, { provider: 'openai' });
}

async function chatJsonOnce<T>(context: OpenAiContext, request: JsonChat<T>): Promise<{ value: T; model: string }> {
  let completion;
  try {
    completion = await context.client.chat.completions.create(
      {
        model: context.textModel,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.content },
        ],
        response_format: jsonSchemaFormat(request.name, request.schema),
        temperature: request.temperature,
      },
      { signal: request.signal },
    );
  } catch (error) {
    throw toOpenAiError(error, request.signal);
  }
  // A gateway's HTML page reaches us as a string, not a completion.
  const choice = typeof completion === 'object' && completion !== null && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (!choice) throw new ProviderError('bad_response', `the ${request.what} came back without a completion`, { provider: 'openai' });
  checkCompletion(choice.finish_reason, choice.message?.refusal ?? '', request.what);
  return { value: request.read(choice.message?.content ?? ''), model: completion.model || context.textModel };
}

/** As chatJson, with stream: true: onJson gets the JSON text piece by piece. */
export async function chatJsonStreamed<T>(
  context: OpenAiContext,
  request: JsonChat<T>,
  onJson: (chunk: string) => void,
  onRestart?: () => void,
): Promise<{ value: T; model: string }> {
  let streamed = false;
  const attempt = async () => {
    let json = '';
    let refusal = '';
    let finishReason: string | null | undefined;
    let model = context.textModel;
    try {
      const stream = await context.client.chat.completions.create(
        {
          model: context.textModel,
          stream: true,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.content },
          ],
          response_format: jsonSchemaFormat(request.name, request.schema),
          temperature: request.temperature,
        },
        { signal: request.signal },
      );
      for await (const chunk of stream) {
        model = chunk.model || model;
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.delta?.refusal) refusal += choice.delta.refusal;
        if (choice.delta?.content) {
          json += choice.delta.content;
          streamed = true;
          onJson(choice.delta.content);
        }
        finishReason = choice.finish_reason ?? finishReason;
      }
    } catch (error) {
      throw toOpenAiError(error, request.signal);
    }
    throwIfCancelled(request.signal, 'openai');
    if (!finishReason && !refusal.trim()) {
      throw new ProviderError('unavailable', `the ${request.what} stream ended before it was complete`, { provider: 'openai' });
    }
    checkCompletion(finishReason, refusal, request.what);
    return { value: request.read(json), model };
  };
  return retrying(attempt, context.retry, request.signal, {
    provider: 'openai',
    mayRetry: () => !streamed || onRestart !== undefined,
    onRetry: () => {
      if (!streamed) return;
      streamed = false;
      onRestart?.();
    },
  });
}
