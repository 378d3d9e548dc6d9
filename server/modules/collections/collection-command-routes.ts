// The main group's collection calls this part answers: the create call and the commands. Each
// answers a CollectionRef; the page then reads GET /collections/:id or hears the change on the
// collection's event stream.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/current-user.js';
import { ok } from '../../http/envelope.js';
import { idField, idParams } from '../../http/strict-numbers.js';
import { validate } from '../../http/validate.js';
import { createCollectionCommands, type CollectionCommands } from './collection-commands.js';
import type { CollectionsContext } from './collections-context.js';
import {
  collectionRefSchema,
  COLLECTION_MAX_OPEN_ITEMS_PER_USER,
  CREATE_COLLECTION_BODY_LIMIT,
  createCollectionCall,
  createCollectionSchema,
} from './create-collection.js';

const itemParams = z.object({ id: idField(), itemId: idField() });
const pickBody = z.object({ image_id: idField() }).strict().meta({ id: 'CollectionPick' });

type CollectionCommand = 'pause' | 'resume' | 'cancel' | 'retryFailed';
type ItemCommand = 'approve' | 'retry' | 'skip' | 'regenerate';

export function registerCollectionCommandRoutes(app: FastifyInstance, c: CollectionsContext): void {
  const create = createCollectionCall(c);
  const commands: CollectionCommands = createCollectionCommands(c);
  const refDoc = (summary: string, status = 200) => ({
    config: { openapi: { summary, tags: ['collections'], response: { status, data: collectionRefSchema } } },
  });

  app.post(
    '/collections',
    {
      bodyLimit: CREATE_COLLECTION_BODY_LIMIT,
      config: {
        openapi: {
          summary:
            `Start a collection: each fabric's analysis, candidates, pick, video prompts and video, queued and resumable. ` +
            `The images are finished uploads (purpose "collection"); a resend with the same client_collection_id answers the same collection. ` +
            `429 queue_full past ${COLLECTION_MAX_OPEN_ITEMS_PER_USER} open fabrics per user`,
          tags: ['collections'],
          body: createCollectionSchema,
          response: { status: 201, data: collectionRefSchema },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const body = validate(createCollectionSchema, request.body);
      const created = await create(request, user.id, body);
      reply.code(201);
      if (created.replayed) void reply.header('idempotent-replayed', 'true');
      return { ...ok(request, created.ref, 'collection_started'), code: 201 };
    },
  );

  const collectionCommand = (path: string, command: CollectionCommand, summary: string) =>
    app.post(path, refDoc(summary), async (request) => {
      const user = currentUser(request);
      const { id } = validate(idParams, request.params);
      return ok(request, await commands[command](user.id, id));
    });
  collectionCommand('/collections/:id/pause', 'pause', 'Pause a collection: running stages finish, no new stage starts (409 already_finished when it has ended)');
  collectionCommand('/collections/:id/resume', 'resume', 'Resume a paused collection');
  collectionCommand('/collections/:id/cancel', 'cancel', 'Cancel a collection: every unfinished fabric is cancelled and its jobs stopped');
  collectionCommand('/collections/:id/retry-failed', 'retryFailed', 'Run every failed fabric again from the stage that failed');

  app.post(
    '/collections/:id/items/:itemId/pick',
    {
      config: {
        openapi: {
          summary: "A person's pick among a fabric's candidates; a fabric waiting for review goes on to its video prompts",
          tags: ['collections'],
          body: pickBody,
          response: { data: collectionRefSchema },
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id, itemId } = validate(itemParams, request.params);
      const { image_id } = validate(pickBody, request.body);
      return ok(request, await commands.pick(user.id, id, itemId, image_id));
    },
  );
  const itemCommand = (path: string, command: ItemCommand, summary: string) =>
    app.post(path, refDoc(summary), async (request) => {
      const user = currentUser(request);
      const { id, itemId } = validate(itemParams, request.params);
      return ok(request, await commands[command](user.id, id, itemId));
    });
  itemCommand('/collections/:id/items/:itemId/approve', 'approve', 'Approve the pick of a fabric waiting for review: it goes on to its video prompts');
  itemCommand('/collections/:id/items/:itemId/retry', 'retry', 'Run a failed fabric again from the stage that failed');
  itemCommand('/collections/:id/items/:itemId/skip', 'skip', 'Skip a queued, failed or waiting fabric');
  itemCommand('/collections/:id/items/:itemId/regenerate', 'regenerate', 'Start a fabric over from its analysis with a new request (the old results stay in history)');
}
