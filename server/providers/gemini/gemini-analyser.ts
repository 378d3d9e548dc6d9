// Analysis on Gemini: vision and text in one streamed request (streamGenerateContent?alt=sse)
// asking for JSON by responseSchema. The schema's first field is the prose; its characters are
// handed to onText as the JSON arrives (shared/streamed-json-field.ts), and the complete JSON,
// checked against the schema, gives AnalysisData. One request, the structured answer and a live
// prose stream, and what was streamed is exactly the text of the result. A stream cut before its
// finishReason (a reset, a 503 inside the stream, a clean end that never said it was done) is
// asked again; when text was already handed over, onRestart tells the caller to drop it first.
import { ProviderError, type Analyser, type AnalyseInput, type AnalysisResult } from '../capabilities.js';
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
    async analyse(input: AnalyseInput, onText: (chunk: string) => void, onRestart?: () => void): Promise<AnalysisResult> {
      // One call for all the images: they share the request's size limit.
      const inline = await inlineImageParts([...input.modelImages, ...input.patternImages]);
      const modelParts = inline.slice(0, input.modelImages.length);
      const patternParts = inline.slice(input.modelImages.length);
      const parts = [
        { text: analysisRequestText(input) },
        ...(modelParts.length > 0 ? [{ text: 'Model images:' }, ...modelParts] : []),
        ...(patternParts.length > 0 ? [{ text: 'Pattern images:' }, ...patternParts] : []),
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
        // Gemini says when it is done; a stream that just ended was cut, and is asked again.
        if (finishReason === undefined) throw new ProviderError('unavailable', "Gemini's analysis stream ended before it was complete", { provider: 'gemini' });
        checkFinishReason(finishReason, 'analysis');
        const answer = parseJsonAnswer(analysisAnswerSchema, field.json, 'gemini', 'analysis');
        // The model put another field first, or the prose had an escape we stopped at: hand over the rest.
        const rest = answer.analysis.slice(field.streamedLength);
        if (rest) onText(rest);
        return toAnalysisResult(answer, model);
      };
      // A retry after text was handed over needs a caller that can take it back.
      return withRetry(attempt, context.retry, input.signal, {
        mayRetry: () => !streamed || onRestart !== undefined,
        onRetry: () => {
          if (!streamed) return;
          streamed = false;
          onRestart?.();
        },
      });
    },
  };
}
