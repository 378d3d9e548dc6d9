import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../modules/users/user-view.js';
import { AppError } from './app-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access guard on every route that is not public. */
    user?: UserRow;
  }
}

export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError(401, 'unauthorized');
  return request.user;
}
