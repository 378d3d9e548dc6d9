// Video prompts on an OpenAI-compatible endpoint: the image as a data URL, JSON by json_schema
// with exactly `count` options.
import type { PromptWriter } from '../capabilities.js';
import { parseJson, readVideoPrompts, videoPromptsSchema } from '../shared/answer-schemas.js';
import { videoPromptInstructions, videoPromptRequestText } from '../shared/instructions.js';
import { imageUrlParts, type OpenAiContext } from './openai-context.js';
import { chatJson } from './openai-json.js';

export function createOpenAiPromptWriter(context: OpenAiContext): PromptWriter {
  return {
    async writeVideoPrompts(input) {
      const { value, model } = await chatJson(context, {
        name: 'video_prompts',
        system: videoPromptInstructions(input),
        content: [{ type: 'text', text: videoPromptRequestText(input) }, ...(await imageUrlParts([input.image]))],
        schema: videoPromptsSchema(input.count),
        read: (json) => readVideoPrompts(parseJson(json, 'openai', 'video prompts'), input.count, 'openai'),
        temperature: 0.9,
        signal: input.signal,
        what: 'video prompts',
      });
      return { prompts: value, model };
    },
  };
}
