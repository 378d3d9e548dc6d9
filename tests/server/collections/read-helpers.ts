// Reading a collection's event stream as it is written: a real listening server and fetch, every
// event held to the stream's schema as it arrives, and a wait for the next one that matches.
import type { FastifyInstance } from 'fastify';
import type { CollectionRepository } from '../../../server/modules/collections/collection-repository.js';
import type { CollectionEvent } from '../../../shared/collections/collection-types.js';
import { expectOnContract } from '../helpers/stream-contract.js';

export interface LiveStream {
  /** Every event read so far, in order. */
  readonly events: CollectionEvent[];
  /** The first event from `from` on that matches (waits for it, failing after `ms`). */
  next<T extends CollectionEvent>(match: (event: CollectionEvent) => event is T, ms?: number, from?: number): Promise<T>;
  next(match: (event: CollectionEvent) => boolean, ms?: number, from?: number): Promise<CollectionEvent>;
  /** Resolves once the server has closed the stream. */
  readonly closed: Promise<void>;
  cut(): Promise<void>;
}

/** The app's address, listening on a free port the first time it is asked. */
export async function addressOf(app: FastifyInstance): Promise<string> {
  const bound = app.server.address();
  if (bound && typeof bound === 'object') return `http://127.0.0.1:${bound.port}`;
  return app.listen({ port: 0, host: '127.0.0.1' });
}

export async function openLiveStream(app: FastifyInstance, path: string, token: string, language = 'en-US'): Promise<LiveStream> {
  const controller = new AbortController();
  const response = await fetch(`${await addressOf(app)}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'accept-language': language },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const events: CollectionEvent[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let ended = false;
  const closed = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut !== -1) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) {
            const event = JSON.parse(data) as CollectionEvent;
            expectOnContract(path, [event]);
            events.push(event);
          }
          cut = buffer.indexOf('\n\n');
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // Cut by the test.
    } finally {
      ended = true;
      for (const wake of waiters) wake();
    }
  })();

  const next = async (match: (event: CollectionEvent) => boolean, ms = 8000, from = 0) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = events.slice(from).find(match);
      if (found) return found;
      if (ended) throw new Error(`stream ended without the event; it sent ${JSON.stringify(events.map((e) => e.type))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event in ${ms} ms; the stream sent ${JSON.stringify(events.map((e) => e.type))}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  };

  return {
    events,
    next: next as LiveStream['next'],
    closed,
    async cut() {
      controller.abort();
      await closed;
    },
  };
}

/** One item row written as the pipeline would leave it (for views of states a run takes long to reach). */
export async function insertItem(repo: CollectionRepository, values: Parameters<CollectionRepository['insertItems']>[0][number]) {
  const [row] = await repo.insertItems([values]);
  return row!;
}
