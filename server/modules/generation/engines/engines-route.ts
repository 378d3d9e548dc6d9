// GET /generation/engines: which engine serves each capability (a cloud service, a self-hosted
// ComfyUI, or the built-in local preview) and what the providers' setup checks found, for the
// settings page ("ComfyUI lacks node type ImageStitch" rather than a failure at the first request).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ok } from '../../../http/envelope.js';
import type { GenerationModule } from '../generation-module.js';

const engineSlotSchema = z.object({ provider: z.string(), local_preview: z.boolean() }).nullable();

export const generationEnginesSchema = z
  .object({
    /** null: no engine serves the capability. */
    capabilities: z.object({
      analyse: engineSlotSchema,
      images: engineSlotSchema,
      prompts: engineSlotSchema,
      video: engineSlotSchema,
      enhance: engineSlotSchema,
    }),
    checks: z.array(
      z.object({
        provider: z.string(),
        reachable: z.boolean(),
        problems: z.array(z.string()).meta({ description: "In the provider's words; empty when all is there." }),
        checked_at: z.string(),
      }),
    ),
  })
  .meta({ id: 'GenerationEngines' });

export function registerEnginesRoute(app: FastifyInstance, generation: GenerationModule): void {
  app.get(
    '/generation/engines',
    {
      config: {
        openapi: {
          summary: 'The engine serving each generation capability, and what its setup check found',
          tags: ['generation'],
          response: { data: generationEnginesSchema },
        },
      },
    },
    async (request) => {
      const p = generation.providers;
      const slot = (s: { provider: string; localPreview: boolean } | undefined) => (s ? { provider: s.provider, local_preview: s.localPreview } : null);
      const checks = await generation.engines.latest();
      const engines: z.output<typeof generationEnginesSchema> = {
        capabilities: {
          analyse: slot(p.analyser),
          images: slot(p.imageGenerator),
          prompts: slot(p.promptWriter),
          video: slot(p.videoGenerator),
          enhance: slot(p.enhancers?.[0]),
        },
        checks: checks.map((c) => ({ provider: c.provider, reachable: c.reachable, problems: c.problems, checked_at: c.checkedAt })),
      };
      return ok(request, engines);
    },
  );
}
