// Video prompts on Gemini: the chosen image plus the fabric facts, JSON by responseSchema with
// exactly `count` options, camera moves from MiniMax's vocabulary. Streamed: each option's prompt
// text is handed to onDraft as it is written.
import type { PromptWriter, VideoPromptDraft } from '../capabilities.js';
import { parseJson, readVideoPrompts, videoPromptsSchema } from '../shared/answer-schemas.js';
import { videoPromptInstructions, videoPromptRequestText } from '../shared/instructions.js';
import type { GeminiContext } from './gemini-context.js';
import { generateJson, streamJson, type JsonRequest } from './gemini-json.js';
import { writeVideoPromptsBy } from '../shared/streamed-json-field.js';
import { inlineImageParts } from './gemini-response.js';

export function createGeminiPromptWriter(context: GeminiContext): PromptWriter {
  return {
    async writeVideoPrompts(input, onDraft, onRestart) {
      const request: JsonRequest<VideoPromptDraft[]> = {
        systemInstruction: videoPromptInstructions(input),
        parts: [{ text: videoPromptRequestText(input) }, ...(await inlineImageParts([input.image]))],
        schema: videoPromptsSchema(input.count),
        read: (json) => readVideoPrompts(parseJson(json, 'gemini', 'video prompts'), input.count, 'gemini'),
        temperature: 0.9,
        signal: input.signal,
        what: 'video prompts',
      };
      return writeVideoPromptsBy(
        { whole: () => generateJson(context, request), streamed: (onText, restart) => streamJson(context, request, onText, restart) },
        onDraft,
        onRestart,
      );
    },
  };
}
