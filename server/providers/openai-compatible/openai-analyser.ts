// Analysis on an OpenAI-compatible endpoint: one streamed chat completion with the images as
// image_url data URLs and response_format json_schema; the JSON's first field is the prose,
// handed to onText as it arrives (shared/streamed-json-field.ts), the whole checked against the
// schema at the end. Same approach as the Gemini adapter, retries of a cut stream included.
import { ProviderError, type Analyser, type AnalyseInput, type AnalysisResult } from '../capabilities.js';
import { ANALYSIS_PROSE_FIELD, analysisAnswerSchema, parseJsonAnswer, toAnalysisResult } from '../shared/answer-schemas.js';
import { throwIfCancelled } from '../shared/abort.js';
import { retrying } from '../shared/retry.js';
import { analysisInstructions, analysisRequestText } from '../shared/instructions.js';
import { StreamedJsonField } from '../shared/streamed-json-field.js';
import { checkCompletion } from './openai-answer.js';
import { imageUrlParts, type OpenAiContext } from './openai-context.js';
import { toOpenAiError } from './openai-errors.js';
import { jsonSchemaFormat } from './openai-schema.js';

const responseFormat = jsonSchemaFormat('fabric_analysis', analysisAnswerSchema);

export function createOpenAiAnalyser(context: OpenAiContext): Analyser {
  return {
    async analyse(input: AnalyseInput, onText: (chunk: string) => void, onRestart?: () => void): Promise<AnalysisResult> {
      // One call for all the images: they share the request's size limit.
      const urls = await imageUrlParts([...input.modelImages, ...input.patternImages]);
      const modelParts = urls.slice(0, input.modelImages.length);
      const patternParts = urls.slice(input.modelImages.length);
      const content = [
        { type: 'text' as const, text: analysisRequestText(input) },
        ...(modelParts.length > 0 ? [{ type: 'text' as const, text: 'Model images:' }, ...modelParts] : []),
        ...(patternParts.length > 0 ? [{ type: 'text' as const, text: 'Pattern images:' }, ...patternParts] : []),
      ];
      let streamed = false;
      const attempt = async (): Promise<AnalysisResult> => {
        const field = new StreamedJsonField(ANALYSIS_PROSE_FIELD);
        let finishReason: string | null | undefined;
        let refusal = '';
        let model = context.textModel;
        try {
          const stream = await context.client.chat.completions.create(
            {
              model: context.textModel,
              stream: true,
              messages: [
                { role: 'system', content: analysisInstructions(input.language) },
                { role: 'user', content },
              ],
              response_format: responseFormat,
              temperature: 0.4,
            },
            { signal: input.signal },
          );
          for await (const chunk of stream) {
            model = chunk.model || model;
            const choice = chunk.choices?.[0];
            if (!choice) continue;
            if (choice.delta?.refusal) refusal += choice.delta.refusal;
            if (choice.delta?.content) {
              const fresh = field.push(choice.delta.content);
              if (fresh) {
                streamed = true;
                onText(fresh);
              }
            }
            finishReason = choice.finish_reason ?? finishReason;
          }
        } catch (error) {
          throw toOpenAiError(error, input.signal);
        }
        // The SDK ends a stream quietly when its signal fires.
        throwIfCancelled(input.signal, 'openai');
        // A stream that ended without a finish reason (and so without data: [DONE]) was cut: asked again.
        if (!finishReason && !refusal.trim()) {
          throw new ProviderError('unavailable', 'the analysis stream ended before it was complete', { provider: 'openai' });
        }
        checkCompletion(finishReason, refusal, 'analysis');
        const answer = parseJsonAnswer(analysisAnswerSchema, field.json, 'openai', 'analysis');
        const rest = answer.analysis.slice(field.streamedLength);
        if (rest) onText(rest);
        return toAnalysisResult(answer, model);
      };
      // A retry after text was handed over needs a caller that can take it back.
      return retrying(attempt, context.retry, input.signal, {
        provider: 'openai',
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
