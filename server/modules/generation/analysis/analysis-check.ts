// An analysis as a provider returned it, checked before it is saved: a model answering garbage (a
// missing field, a number where text belongs) is the spec's "analysis result format error", not a
// crash later in a history page.
import { z } from 'zod';
import { ProviderError, type AnalysisData, type AnalysisResult } from '../../../providers/capabilities.js';

const analysisSchema = z.object({
  summary: z.string(),
  colors: z.array(z.object({ hex: z.string(), name: z.string(), share: z.number() })),
  pattern: z.object({ kind: z.string(), scale: z.string(), orientation: z.string(), repeat: z.string() }),
  texture: z.string(),
  image_prompt: z.string(),
  moments_text: z.string(),
  style: z.string(),
});

export function checkedAnalysis(result: unknown): AnalysisResult {
  const r = result as Partial<AnalysisResult> | null | undefined;
  const data = analysisSchema.safeParse(r?.data);
  if (!r || typeof r.text !== 'string' || !data.success) {
    throw new ProviderError('bad_response', `analysis does not have the expected shape: ${data.error?.issues[0]?.message ?? 'no text'}`);
  }
  return { text: r.text, data: data.data as AnalysisData, model: typeof r.model === 'string' ? r.model : 'unknown' };
}
