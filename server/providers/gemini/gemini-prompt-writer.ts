// Video prompts on Gemini: the chosen image plus the fabric facts, JSON by responseSchema with
// exactly `count` options, camera moves from MiniMax's vocabulary.
import type { PromptWriter } from '../capabilities.js';
import { parseJson, readVideoPrompts, videoPromptsSchema } from '../shared/answer-schemas.js';
import { videoPromptInstructions, videoPromptRequestText } from '../shared/instructions.js';
import type { GeminiContext } from './gemini-context.js';
import { generateJson } from './gemini-json.js';
import { inlineImageParts } from './gemini-response.js';

export function createGeminiPromptWriter(context: GeminiContext): PromptWriter {
  return {
    async writeVideoPrompts(input) {
      const { value, model } = await generateJson(context, {
        systemInstruction: videoPromptInstructions(input),
        parts: [{ text: videoPromptRequestText(input) }, ...(await inlineImageParts([input.image]))],
        schema: videoPromptsSchema(input.count),
        read: (json) => readVideoPrompts(parseJson(json, 'gemini', 'video prompts'), input.count, 'gemini'),
        temperature: 0.9,
        signal: input.signal,
        what: 'video prompts',
      });
      return { prompts: value, model };
    },
  };
}
