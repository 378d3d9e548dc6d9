// GET /collections/:id/events: the whole collection first, then what changes as its items move.
// The pipeline tells each move on the collection's topic (collection:<id>); this stream reads the
// rows for every word it hears, so what it sends is always the rows as they are, never the event's
// own claim. The rows are also read again every STATE_CHECK_MS: in team mode a notification sent
// while this replica's listener reconnected is never heard, and an item moved then (or the end)
// is found there. The stream ends with the whole collection once it is completed or cancelled.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CollectionStatus } from '../../../shared/collections/collection-types.js';
import { STAGES } from '../../../shared/collections/collection-types.js';
import type { Locale } from '../../http/messages.js';
import { openEventStream, STATE_CHECK_MS } from '../generation/event-stream.js';
import type { GenerationContext } from '../generation/generation-context.js';
import type { CollectionEvent } from './collection-events.js';
import type { CollectionRepository } from './collection-repository.js';
import type { CollectionItemRow, CollectionRow } from './collection-tables.js';
import type { CollectionViews } from './collection-views.js';
import { collectionTopic } from './collections-context.js';

/** What a collection's stream needs: the rows, their views, and the job engine's topics. */
export interface CollectionStreamContext {
  gen: Pick<GenerationContext, 'jobs' | 'log'>;
  repo: CollectionRepository;
  views: CollectionViews;
}

const OVER: readonly CollectionStatus[] = ['completed', 'cancelled'];

/**
 * What the pipeline publishes, read defensively (a word of another shape is ignored). A move or a
 * status change only says "read the rows again": what is sent comes from the rows.
 */
type TopicWord = { type: 'item_moved'; item_id: number } | { type: 'status' } | Extract<CollectionEvent, { type: 'progress' }>;

function readWord(raw: unknown): TopicWord | null {
  if (!raw || typeof raw !== 'object') return null;
  const word = raw as Record<string, unknown>;
  if (word.type === 'item_moved' && Number.isInteger(word.item_id)) return { type: 'item_moved', item_id: word.item_id as number };
  if (word.type === 'status') return { type: 'status' };
  const stage = STAGES.find((s) => s === word.stage);
  if (word.type === 'progress' && Number.isInteger(word.item_id) && stage && typeof word.progress === 'number' && Number.isFinite(word.progress)) {
    return { type: 'progress', item_id: word.item_id as number, stage, progress: word.progress };
  }
  return null;
}

/** What an item looked like when it was last sent: a row that reads otherwise has moved since. */
const fingerprint = (item: Pick<CollectionItemRow, 'status' | 'stage' | 'updated_at'>) => `${item.status}|${item.stage}|${item.updated_at}`;

export async function streamCollection(
  ctx: CollectionStreamContext,
  opened: CollectionRow,
  request: FastifyRequest,
  reply: FastifyReply,
  locale: Locale,
): Promise<void> {
  const stream = openEventStream<CollectionEvent>(request, reply);
  const sent = new Map<number, string>();
  let status: CollectionStatus | undefined;
  const inTurn = (step: () => Promise<void>, what: string) =>
    stream.inTurn(step, (error: unknown) => ctx.gen.log.warn({ err: error }, what));

  const readCollection = async () => (await ctx.repo.collection(opened.id)) ?? null;

  /** The status when it changed since last said; the end (with the whole collection) once it is over. */
  const sayStatus = async (collection: CollectionRow) => {
    if (collection.status !== status) {
      status = collection.status;
      stream.send({ type: 'status', status: collection.status });
    }
    if (OVER.includes(collection.status)) {
      stream.send({ type: 'end', collection: await ctx.views.view(collection, locale) });
      stream.end();
    }
  };

  /** One item as its row reads now, unless this stream already sent it as it is. */
  const sayItem = async (collection: CollectionRow, itemId: number) => {
    const update = await ctx.views.itemUpdate(collection, itemId, locale);
    if (!update) return;
    const row = { status: update.item.status, stage: update.item.stage, updated_at: update.item.updated_at };
    if (sent.get(itemId) === fingerprint(row)) return;
    sent.set(itemId, fingerprint(row));
    stream.send({ type: 'item', ...update });
  };

  const gone = () => stream.end();

  const unsubscribe = ctx.gen.jobs.onProgress(collectionTopic(opened.id), (raw) => {
    const word = readWord(raw);
    if (!word) return;
    inTurn(async () => {
      if (word.type === 'progress') {
        stream.send(word);
        return;
      }
      const collection = await readCollection();
      if (!collection) return gone();
      if (word.type === 'item_moved') await sayItem(collection, word.item_id);
      await sayStatus(collection);
    }, 'collection stream could not tell an event');
  });

  // The opening step is the queue's first (queued with no await after subscribing): what it reads
  // comes after the topic is watched, so no move from here on is missed, and the events heard
  // meanwhile are told after the snapshot.
  stream.inTurn(async () => {
    const collection = await readCollection();
    if (!collection) return gone();
    const view = await ctx.views.view(collection, locale);
    for (const item of view.items) sent.set(item.id, fingerprint(item));
    status = collection.status;
    stream.send({ type: 'snapshot', collection: view });
    if (OVER.includes(collection.status)) {
      stream.send({ type: 'end', collection: view });
      stream.end();
    }
  }, (error: unknown) => {
    // Nothing follows a stream without its snapshot: the client opens it again.
    ctx.gen.log.error({ err: error }, 'collection stream could not open');
    stream.end();
  });

  stream.every(STATE_CHECK_MS, () =>
    inTurn(async () => {
      const collection = await readCollection();
      if (!collection) return gone();
      const items = await ctx.repo.itemsOfCollection(collection.id);
      for (const item of items) {
        if (sent.get(item.id) !== fingerprint(item)) await sayItem(collection, item.id);
      }
      await sayStatus(collection);
    }, 'collection stream could not read its rows again'),
  );

  try {
    await stream.finished;
  } finally {
    unsubscribe();
    await stream.stepsDone();
  }
}
