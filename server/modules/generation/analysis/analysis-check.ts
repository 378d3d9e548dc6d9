// An analysis as a provider returned it, checked before it is saved: a model answering garbage (a
// missing field, a number where text belongs) is the spec's "analysis result format error", not a
// crash later in a history page.
import { ProviderError, analysisDataSchema, type AnalysisResult } from '../../../providers/capabilities.js';

export function checkedAnalysis(result: unknown): AnalysisResult {
  const r = result as Partial<AnalysisResult> | null | undefined;
  const data = analysisDataSchema.safeParse(r?.data);
  if (!r || typeof r.text !== 'string' || !data.success) {
    throw new ProviderError('bad_response', `analysis does not have the expected shape: ${data.error?.issues[0]?.message ?? 'no text'}`);
  }
  return { text: r.text, data: data.data, model: typeof r.model === 'string' ? r.model : 'unknown' };
}
