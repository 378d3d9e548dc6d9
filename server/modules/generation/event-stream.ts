// A text/event-stream reply of `data: {json}` lines, as the image service's streaming calls answer.
// The reply is hijacked, so headers other hooks set (CORS, request id) are carried over by hand. A
// client that goes away only stops the writing: the work behind the stream goes on and is saved.
// A stream speaks one union of events, each a zod schema beside its route that the OpenAPI document
// names (analyze-events.ts, video-events.ts, …): `send` takes nothing else.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { startEventStreamReply } from '../../http/event-stream-reply.js';

const HEARTBEAT_MS = 15_000;
/**
 * How often a stream reads its rows again. In team mode a job's events reach this replica over
 * LISTEN/NOTIFY, and what was notified while the replica's listener reconnected (PostgreSQL
 * restarted) is never heard: the rows are the truth, so a stream never waits on an end it missed.
 */
export const STATE_CHECK_MS = 3_000;

export interface EventStream<Event extends { type: string }> {
  send(event: Event): void;
  end(): void;
  /** True once the client has gone or the stream was ended. */
  readonly closed: boolean;
  /** Resolves when the stream ends either way. */
  readonly finished: Promise<void>;
  /** Calls `check` every `ms` until the stream ends. */
  every(ms: number, check: () => void): void;
  /**
   * Runs `step` after every step queued before it, one at a time, and not at all once the stream
   * has closed; a step's error goes to `failed`. A step reads and then sends with no other step in
   * between, so nothing sent is older than what went before it and nothing follows a final event.
   */
  inTurn(step: () => Promise<void> | void, failed: (error: unknown) => void): void;
  /** Resolves once every step queued so far has run. */
  stepsDone(): Promise<void>;
}

/** `Event` must be named (it is never by default), so every stream says which union it speaks. */
export function openEventStream<Event extends { type: string } = never>(
  _request: FastifyRequest,
  reply: FastifyReply,
): EventStream<Event> {
  const raw = startEventStreamReply(reply);
  let closed = false;
  let resolveFinished: () => void = () => {};
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  const timers: NodeJS.Timeout[] = [];
  let steps = Promise.resolve();
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const timer of timers) clearInterval(timer);
    resolveFinished();
  };
  const write = (chunk: string) => {
    if (!closed && !raw.destroyed && !raw.writableEnded) raw.write(chunk);
  };
  // Comment lines keep proxies from closing a stream that waits on a slow provider.
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  raw.once('close', close);
  return {
    send: (event) => write(`data: ${JSON.stringify(event)}\n\n`),
    end() {
      if (!raw.writableEnded) raw.end();
      close();
    },
    get closed() {
      return closed;
    },
    finished,
    every(ms, check) {
      if (!closed) timers.push(setInterval(check, ms));
    },
    inTurn(step, failed) {
      steps = steps.then(() => (closed ? undefined : step())).catch(failed);
    },
    stepsDone: () => steps,
  };
}
