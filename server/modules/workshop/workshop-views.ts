// Workshop items as the third group answers them: input, config, result with confidence, model and
// processing time, failure in the reader's language, signed links for every file.
import type { Locale } from '../../http/messages.js';
import { failureView } from '../generation/failure.js';
import { parseObject } from '../generation/store/stored-json.js';
import type { GenerationContext } from '../generation/generation-context.js';
import { parseConfig, parseFileIds } from './workshop-config.js';
import type { WorkshopItemRow } from './workshop-table.js';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

export function createWorkshopViews(ctx: GenerationContext) {
  return {
    async items(rows: WorkshopItemRow[], locale: Locale) {
      const fileIds = rows.flatMap((r) => [...parseFileIds(r.input_file_ids), ...parseFileIds(r.result_file_ids)]);
      const mimes = await ctx.repo.fileMimeTypes(fileIds);
      const link = (id: string, stem: string) =>
        ctx.links.sign(id, `${stem}.${EXTENSIONS[mimes.get(id) ?? ''] ?? 'bin'}`, ctx.now().getTime());
      const local = new Set((ctx.providers.enhancers ?? []).filter((s) => s.localPreview).map((s) => s.provider));
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        status: r.status,
        text: r.input_text,
        images: parseFileIds(r.input_file_ids).map((id, i) => ({ file_id: id, url: link(id, `workshop-${r.id}-input-${i + 1}`) })),
        config: parseConfig(r.config_json),
        result:
          r.status === 'completed'
            ? {
                text: r.result_text,
                images: parseFileIds(r.result_file_ids).map((id, i) => ({
                  file_id: id,
                  url: link(id, `workshop-${r.id}-result-${i + 1}`),
                })),
                confidence: r.confidence === null ? null : Number(r.confidence),
                model: r.model,
                // What the built-in text polish changed (spelling, capitals, spacing, punctuation), or null.
                text_changes: parseObject(r.result_changes_json) ?? null,
                processing_ms: r.processing_ms === null ? null : Number(r.processing_ms),
              }
            : null,
        provider: r.provider,
        local_preview: r.provider !== null && local.has(r.provider),
        error: failureView(r, locale),
        created_at: r.created_at,
        started_at: r.started_at,
        completed_at: r.completed_at,
        updated_at: r.updated_at,
      }));
    },
  };
}
