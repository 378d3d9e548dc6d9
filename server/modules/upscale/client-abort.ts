// An AbortSignal that fires when the client goes away before its reply is finished, so queued
// work is dropped and running work stops between tiles.
import type { FastifyReply } from 'fastify';

export function abortOnDisconnect(reply: FastifyReply): AbortController {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller;
}
