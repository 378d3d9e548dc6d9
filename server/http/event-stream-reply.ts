// Turns a reply into a text/event-stream: hijacked (the stream outlives Fastify's reply cycle),
// with the headers other hooks set (CORS, request id) carried over by hand since hijack skips
// onSend, and no buffering by proxies. Shared by the upscale batch and the generation streams.
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export function startEventStreamReply(reply: FastifyReply): ServerResponse {
  const raw = reply.raw;
  reply.hijack();
  const carried = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined),
  ) as Record<string, string | number | string[]>;
  raw.writeHead(200, {
    ...carried,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  return raw;
}
