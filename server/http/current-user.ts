import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/schema.js';
import { AppError } from './app-error.js';

/** The signed-in user's row, as the users module reads it (its UserRow). */
export type SignedInUser = Selectable<UsersTable>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access guard on every route that is not public. */
    user?: SignedInUser;
  }
}

export function currentUser(request: FastifyRequest): SignedInUser {
  if (!request.user) throw new AppError(401, 'unauthorized');
  return request.user;
}
