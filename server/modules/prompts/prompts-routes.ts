// Prompt management calls under the main API (ADMIN only, see route-access.ts). Mutations accept
// an Idempotency-Key header: the PWA's offline outbox replays with it and is applied once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/current-user.js';
import { ok } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import { fingerprintOf, idempotencyKeyOf, type IdempotentResult } from '../../http/idempotency-store.js';
import { PROMPT_MAX_LENGTH, PROMPT_TYPES } from './prompt-tables.js';
import type { MutationContext, PromptsService } from './prompts-service.js';

const content = z
  .string()
  .max(PROMPT_MAX_LENGTH, `content must be at most ${PROMPT_MAX_LENGTH} characters`)
  .refine((s) => s.trim().length > 0, 'content is required');
const typeParams = z.object({ type: z.enum(PROMPT_TYPES) });
const createBody = z.object({ type: z.enum(PROMPT_TYPES), content });
const updateBody = z.object({ content });

function mutationContext(request: FastifyRequest, route: string, body: unknown): MutationContext {
  const key = idempotencyKeyOf(request);
  return { actor: currentUser(request), idempotencyKey: key, fingerprint: fingerprintOf(request.method, route, body) };
}

function answer(request: FastifyRequest, reply: FastifyReply, result: IdempotentResult) {
  reply.code(result.status);
  if (result.replayed) void reply.header('idempotent-replayed', 'true');
  return { ...ok(request, result.data, result.messageKey), code: result.status };
}

export function registerPromptsRoutes(app: FastifyInstance, prompts: PromptsService): void {
  app.get('/prompts/', async (request) => ok(request, await prompts.list()));
  app.get('/prompts/:type/', async (request) => {
    const { type } = validate(typeParams, request.params);
    return ok(request, await prompts.get(type));
  });
  app.post('/prompts/', async (request, reply) => {
    const body = validate(createBody, request.body);
    const ctx = mutationContext(request, '/prompts/', body);
    return answer(request, reply, await prompts.create(ctx, body.type, body.content));
  });
  app.put('/prompts/:type/', async (request, reply) => {
    const { type } = validate(typeParams, request.params);
    const body = validate(updateBody, request.body);
    const ctx = mutationContext(request, `/prompts/${type}/`, body);
    return answer(request, reply, await prompts.update(ctx, type, body.content));
  });
  app.delete('/prompts/:type/', async (request, reply) => {
    const { type } = validate(typeParams, request.params);
    const ctx = mutationContext(request, `/prompts/${type}/`, null);
    return answer(request, reply, await prompts.remove(ctx, type));
  });
}
