// Analysis on Gemini: vision and text in one streamed request (streamGenerateContent?alt=sse)
// asking for JSON by responseSchema. The schema's first field is the prose; its characters are
// handed to onText as the JSON arrives (shared/streamed-json-field.ts), and the complete JSON,
// checked against the schema, gives AnalysisData. One request, the structured answer and a live
// prose stream, and what was streamed is exactly the text of the result.
import type { Analyser, AnalyseInput, AnalysisResult } from '../capabilities.js';
import { throwIfCancelled } from '../shared/abort.js';
import { ANALYSIS_PROSE_FIELD, analysisAnswerSchema, parseJsonAnswer, toAnalysisResult } from '../shared/answer-schemas.js';
import { analysisInstructions, analysisRequestText } from '../shared/instructions.js';
import { StreamedJsonField } from '../shared/streamed-json-field.js';
import type { GeminiContext } from './gemini-context.js';
import { toGeminiError } from './gemini-errors.js';
import { checkFinishReason, checkPromptFeedback, finishReasonOf, inlineImageParts, textOf } from './gemini-response.js';
import { withRetry } from './gemini-retry.js';
import { geminiResponseSchema } from './gemini-schema.js';

const responseSchema = geminiResponseSchema(analysisAnswerSchema);

export function createGeminiAnalyser(context: GeminiContext): Analyser {
  return {
    async analyse(input: AnalyseInput, onText: (chunk: string) => void): Promise<AnalysisResult> {
      const parts = [
        { text: analysisRequestText(input) },
        ...(input.modelImages.length > 0 ? [{ text: 'Model images:' }, ...(await inlineImageParts(input.modelImages))] : []),
        ...(input.patternImages.length > 0 ? [{ text: 'Pattern images:' }, ...(await inlineImageParts(input.patternImages))] : []),
      ];
      let streamed = false;
      const attempt = async (): Promise<AnalysisResult> => {
        const field = new StreamedJsonField(ANALYSIS_PROSE_FIELD);
        let finishReason: string | undefined;
        let model = context.textModel;
        try {
          const stream = await context.ai.models.generateContentStream({
            model: context.textModel,
            contents: [{ role: 'user', parts }],
            config: {
              systemInstruction: analysisInstructions(input.language),
              responseMimeType: 'application/json',
              responseSchema,
              temperature: 0.4,
              abortSignal: input.signal,
            },
          });
          for await (const chunk of stream) {
            checkPromptFeedback(chunk);
            const fresh = field.push(textOf(chunk));
            if (fresh) {
              streamed = true;
              onText(fresh);
            }
            finishReason = finishReasonOf(chunk) ?? finishReason;
            model = chunk.modelVersion ?? model;
          }
        } catch (error) {
          throw toGeminiError(error, input.signal);
        }
        throwIfCancelled(input.signal, 'gemini');
        checkFinishReason(finishReason, 'analysis');
        const answer = parseJsonAnswer(analysisAnswerSchema, field.json, 'gemini', 'analysis');
        // The model put another field first, or the prose had an escape we stopped at: hand over the rest.
        const rest = answer.analysis.slice(field.streamedLength);
        if (rest) onText(rest);
        return toAnalysisResult(answer, model);
      };
      return withRetry(attempt, context.retry, input.signal, () => !streamed);
    },
  };
}
