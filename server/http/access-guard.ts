// Turns the route-access table into a preHandler on each route of one API group. It needs two
// things of the modules, named here by what it asks of them (the auth module's access tokens and
// the users repository fit), so this layer never imports a module.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from './app-error.js';
import type { SignedInUser } from './current-user.js';
import { accessFor, type ApiGroup } from './route-access.js';

export interface Authenticator {
  /** The signed-in user behind a request's bearer token, or an AppError 401. */
  authenticate(request: FastifyRequest): Promise<NonNullable<FastifyRequest['user']>>;
}

/** Reads an access token: its user and that user's token version when signed, or null when it is not valid. */
export interface AccessTokenReader {
  verify(token: string): Promise<{ userId: number; version: number } | null>;
}

/** Finds a user's row by id. */
export interface UserFinder {
  findById(id: number): Promise<SignedInUser | undefined>;
}

export function createAuthenticator(tokens: AccessTokenReader, users: UserFinder): Authenticator {
  return {
    async authenticate(request) {
      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const claims = match?.[1] ? await tokens.verify(match[1]) : null;
      if (!claims) throw new AppError(401, 'unauthorized');
      const user = await users.findById(claims.userId);
      // A disabled or deleted user's tokens stop working at once, and so do tokens signed before
      // the user's last logout, password change or reset.
      if (!user || Number(user.disabled) || claims.version !== Number(user.token_version)) {
        throw new AppError(401, 'unauthorized');
      }
      return user;
    },
  };
}

export function installAccessGuard(
  app: FastifyInstance,
  group: ApiGroup,
  prefix: string,
  authenticator: Authenticator,
): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const path = route.url.startsWith(prefix) ? route.url.slice(prefix.length) : route.url;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const accesses = methods.map((method) => accessFor(group, method, path));
    const access = accesses[0];
    if (!access || accesses.some((a) => a !== access)) {
      throw new Error(`Route ${methods.join(',')} ${route.url} has no single line in server/http/route-access.ts`);
    }
    if (access === 'public') return;
    const guard = async (request: FastifyRequest) => {
      const user = await authenticator.authenticate(request);
      if (access !== 'signed-in' && !access.includes(user.user_level)) throw new AppError(403, 'forbidden');
      request.user = user;
    };
    const existing = route.preHandler;
    route.preHandler = existing ? [guard, ...(Array.isArray(existing) ? existing : [existing])] : [guard];
  });
}
