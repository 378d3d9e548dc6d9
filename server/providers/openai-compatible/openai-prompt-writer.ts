// Video prompts on an OpenAI-compatible endpoint: the image as a data URL, JSON by json_schema
// with exactly `count` options. Streamed: each option's prompt text is handed to onDraft as it is
// written.
import type { PromptWriter, VideoPromptDraft } from '../capabilities.js';
import { parseJson, readVideoPrompts, videoPromptsSchema } from '../shared/answer-schemas.js';
import { videoPromptInstructions, videoPromptRequestText } from '../shared/instructions.js';
import { imageUrlParts, type OpenAiContext } from './openai-context.js';
import { chatJson, chatJsonStreamed, type JsonChat } from './openai-json.js';
import { writeVideoPromptsBy } from '../shared/streamed-json-field.js';

export function createOpenAiPromptWriter(context: OpenAiContext): PromptWriter {
  return {
    async writeVideoPrompts(input, onDraft, onRestart) {
      const request: JsonChat<VideoPromptDraft[]> = {
        name: 'video_prompts',
        system: videoPromptInstructions(input),
        content: [{ type: 'text', text: videoPromptRequestText(input) }, ...(await imageUrlParts([input.image]))],
        schema: videoPromptsSchema(input.count),
        read: (json) => readVideoPrompts(parseJson(json, 'openai', 'video prompts'), input.count, 'openai'),
        temperature: 0.9,
        signal: input.signal,
        what: 'video prompts',
      };
      return writeVideoPromptsBy(
        { whole: () => chatJson(context, request), streamed: (onText, restart) => chatJsonStreamed(context, request, onText, restart) },
        onDraft,
        onRestart,
      );
    },
  };
}
