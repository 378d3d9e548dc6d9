// A non-streamed chat completion whose answer is JSON by response_format json_schema.
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { ProviderError } from '../capabilities.js';
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
