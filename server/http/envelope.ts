import type { FastifyReply, FastifyRequest } from 'fastify';
import { localeFrom, message, type MessageKey } from './messages.js';

/** The main API's reply shape, errors included. */
export interface Envelope<T> {
  success: boolean;
  code: number;
  message: string;
  data: T;
}

export function ok<T>(request: FastifyRequest, data: T, key: MessageKey = 'ok'): Envelope<T> {
  return { success: true, code: 200, message: message(key, localeFrom(request.headers['accept-language'])), data };
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  key: MessageKey,
  vars: Record<string, string | number> = {},
  data: unknown = null,
): FastifyReply {
  const body: Envelope<unknown> = {
    success: false,
    code: status,
    message: message(key, localeFrom(request.headers['accept-language']), vars),
    data,
  };
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}
