// The main group's collection reads: the list, one collection, its event stream and its results
// sheet. Every read is of the signed-in user's own collections; another's answers 404 as one that
// does not exist.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SUPPORTED_LANGUAGES } from '../../../shared/i18n/languages.js';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/current-user.js';
import { ok } from '../../http/envelope.js';
import { localeFrom, type Locale } from '../../http/messages.js';
import { idParams } from '../../http/strict-numbers.js';
import { validate } from '../../http/validate.js';
import { streamCollection } from './collection-stream.js';
import { collectionEventSchema } from './collection-events.js';
import type { CollectionsContext } from './collections-context.js';
import { collectionListSchema, collectionViewSchema } from './collection-view-schemas.js';
import { createCollectionViews, MAX_LISTED_COLLECTIONS } from './collection-views.js';
import { CSV_CONTENT_TYPE, resultsCsv, resultsDisposition } from './results-csv.js';

const csvQuery = z.object({
  language: z.enum(SUPPORTED_LANGUAGES).optional().meta({ description: "The sheet's language; else Accept-Language's." }),
});

export function registerCollectionReadRoutes(app: FastifyInstance, ctx: CollectionsContext): void {
  const views = createCollectionViews(ctx);
  const locale = (request: FastifyRequest): Locale => localeFrom(request.headers['accept-language']);
  const ownCollection = async (request: FastifyRequest) => {
    const user = currentUser(request);
    const { id } = validate(idParams, request.params);
    const collection = await ctx.repo.collectionOfUser(user.id, id);
    if (!collection) throw new AppError(404, 'not_found');
    return collection;
  };

  app.get(
    '/collections',
    {
      config: {
        openapi: {
          summary: `The user's collections, newest first (the latest ${MAX_LISTED_COLLECTIONS}), each with its counts`,
          tags: ['collections'],
          response: { data: collectionListSchema },
        },
      },
    },
    async (request) => ok(request, { items: await views.summaries(currentUser(request).id) }),
  );

  app.get(
    '/collections/:id',
    {
      config: {
        openapi: {
          summary: 'One collection with its settings, counts, time left and every fabric',
          tags: ['collections'],
          response: { data: collectionViewSchema },
        },
      },
    },
    async (request) => ok(request, await views.view(await ownCollection(request), locale(request))),
  );

  app.get(
    '/collections/:id/events',
    {
      config: {
        openapi: {
          summary: "A collection's progress (event stream)",
          tags: ['collections'],
          response: {
            description:
              'One CollectionEvent per `data:` line: the snapshot first, then each item as it moves (with fresh counts), the status, a stage’s progress; end (completed or cancelled) ends it',
            contentType: 'text/event-stream',
            schema: collectionEventSchema,
          },
        },
      },
    },
    async (request, reply) => {
      const collection = await ownCollection(request);
      await streamCollection({ ...ctx, views }, collection, request, reply, locale(request));
    },
  );

  app.get(
    '/collections/:id/results.csv',
    {
      config: {
        openapi: {
          summary: "A collection's results sheet: one row per fabric (code, name, status, stage, error, picked image link, video link)",
          tags: ['collections'],
          query: csvQuery,
          response: {
            description: 'UTF-8 CSV with a BOM; cells a spreadsheet would run as formulas start with an apostrophe',
            contentType: 'text/csv',
            schema: z.string(),
          },
        },
      },
    },
    async (request, reply) => {
      const collection = await ownCollection(request);
      const { language } = validate(csvQuery, request.query);
      const lang = language ?? locale(request);
      const items = await views.items(await ctx.repo.itemsOfCollection(collection.id), lang);
      // Links go into a file read outside the PWA: they carry this server's origin.
      const csv = resultsCsv(items, lang, `${request.protocol}://${request.host}`);
      return reply
        .header('content-type', CSV_CONTENT_TYPE)
        .header('content-disposition', resultsDisposition(collection.name))
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );
}
