// Prompt management calls under the main API (ADMIN only, see route-access.ts). Mutations accept
// an Idempotency-Key header: the PWA's offline outbox replays with it and is applied once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/current-user.js';
import { ok } from '../../http/envelope.js';
import type { OpenApiRouteDoc } from '../../http/openapi.js';
import { validate } from '../../http/validate.js';
import { fingerprintOf, idempotencyKeyOf, type IdempotentResult } from '../../http/idempotency-store.js';
import { PROMPT_MAX_LENGTH, PROMPT_TYPES } from './prompt-tables.js';
import type { MutationContext, PromptsService } from './prompts-service.js';
import { promptViewSchema } from './prompt-view.js';

const content = z
  .string()
  .max(PROMPT_MAX_LENGTH, `content must be at most ${PROMPT_MAX_LENGTH} characters`)
  .refine((s) => s.trim().length > 0, 'content is required');
const typeParams = z.object({ type: z.enum(PROMPT_TYPES) });
const createBody = z.object({ type: z.enum(PROMPT_TYPES), content });
const updateBody = z.object({ content });

function mutationContext(request: FastifyRequest, route: string, body: unknown): MutationContext {
  const key = idempotencyKeyOf(request);
  return {
    actor: currentUser(request),
    idempotencyKey: key,
    fingerprint: fingerprintOf(request.method, route, body),
  };
}

function answer(request: FastifyRequest, reply: FastifyReply, result: IdempotentResult) {
  reply.code(result.status);
  if (result.replayed) void reply.header('idempotent-replayed', 'true');
  return { ...ok(request, result.data, result.messageKey), code: result.status };
}

/** What a route tells the OpenAPI document: its summary, the envelope's data, and more (a body, a status). */
const doc = (
  summary: string,
  data: z.ZodType,
  more: Omit<OpenApiRouteDoc, 'summary' | 'response'> & { status?: number } = {},
) => {
  const { status, ...rest } = more;
  return {
    config: {
      openapi: { summary, tags: ['prompts'], ...rest, response: { data, ...(status ? { status } : {}) } },
    },
  };
};
const deleted = z.object({ type: z.enum(PROMPT_TYPES) });

export function registerPromptsRoutes(app: FastifyInstance, prompts: PromptsService): void {
  app.get('/prompts/', doc('The three prompts', z.array(promptViewSchema)), async (request) =>
    ok(request, await prompts.list()),
  );
  app.get('/prompts/:type/', doc('One prompt', promptViewSchema), async (request) => {
    const { type } = validate(typeParams, request.params);
    return ok(request, await prompts.get(type));
  });
  app.post(
    '/prompts/',
    doc('Create a prompt (replayed by Idempotency-Key)', promptViewSchema, { body: createBody, status: 201 }),
    async (request, reply) => {
      const body = validate(createBody, request.body);
      const ctx = mutationContext(request, '/prompts/', body);
      return answer(request, reply, await prompts.create(ctx, body.type, body.content));
    },
  );
  app.put(
    '/prompts/:type/',
    doc('Replace a prompt (replayed by Idempotency-Key)', promptViewSchema, { body: updateBody }),
    async (request, reply) => {
      const { type } = validate(typeParams, request.params);
      const body = validate(updateBody, request.body);
      const ctx = mutationContext(request, `/prompts/${type}/`, body);
      return answer(request, reply, await prompts.update(ctx, type, body.content));
    },
  );
  app.delete(
    '/prompts/:type/',
    doc('Delete a prompt (replayed by Idempotency-Key)', deleted),
    async (request, reply) => {
      const { type } = validate(typeParams, request.params);
      const ctx = mutationContext(request, `/prompts/${type}/`, null);
      return answer(request, reply, await prompts.remove(ctx, type));
    },
  );
}
