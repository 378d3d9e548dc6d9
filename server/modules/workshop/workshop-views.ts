// Workshop items as the third group answers them: input, config, result with confidence, model and
// processing time, failure in the reader's language, signed links for every file. The item is a
// zod schema: the OpenAPI document names it and the PWA's types are generated from it.
import { z } from 'zod';
import { WORKSHOP_TYPES } from '../../../shared/workshop/workshop-options.js';
import type { Locale } from '../../http/messages.js';
import { textChangeReportSchema } from '../../providers/capabilities.js';
import { failureView, itemErrorSchema } from '../generation/failure.js';
import { pageSchema } from '../generation/history/page-query.js';
import { parseObject } from '../generation/store/stored-json.js';
import type { GenerationContext } from '../generation/generation-context.js';
import { parseConfig, parseFileIds, workshopConfigSchema } from './workshop-config.js';
import { WORKSHOP_STATUSES, type WorkshopItemRow } from './workshop-table.js';

const fileLinkSchema = z.object({ file_id: z.string(), url: z.string() }).meta({ id: 'WorkshopFileLink' });

export const workshopResultSchema = z
  .object({
    text: z.string().nullable(),
    images: z.array(fileLinkSchema),
    confidence: z.number().nullable().meta({ description: '0..1' }),
    model: z.string().nullable(),
    text_changes: textChangeReportSchema
      .nullable()
      .meta({ description: 'What the built-in text polish changed (spelling, capitals, spacing, punctuation), or null.' }),
    processing_ms: z.number().nullable(),
  })
  .meta({ id: 'WorkshopResult' });

export const workshopItemSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(WORKSHOP_TYPES),
    status: z.enum(WORKSHOP_STATUSES),
    text: z.string().nullable(),
    images: z.array(fileLinkSchema),
    config: workshopConfigSchema,
    result: workshopResultSchema.nullable().meta({ description: 'Only once the item is completed.' }),
    provider: z.string().nullable(),
    local_preview: z.boolean(),
    error: itemErrorSchema.nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    updated_at: z.string(),
  })
  .meta({ id: 'WorkshopItem' });
export type WorkshopItemView = z.output<typeof workshopItemSchema>;

export const workshopItemPageSchema = pageSchema(workshopItemSchema, 'WorkshopItemPage');

/** A stored change list that no longer reads as one (edited by hand, an older shape) shows as none. */
const textChangesOf = (json: string | null) => textChangeReportSchema.safeParse(parseObject(json)).data ?? null;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

export function createWorkshopViews(ctx: GenerationContext) {
  return {
    async items(rows: WorkshopItemRow[], locale: Locale): Promise<WorkshopItemView[]> {
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
                text_changes: textChangesOf(r.result_changes_json),
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
