// The third API group (THIRD_API_URL, default /third-api): the workshop. The PWA sends
// X-API-Version: v1; a request naming another version is refused with a clear 400 rather than
// answered in a shape its client does not expect. Replies use the main API's envelope.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { installAccessGuard, type Authenticator } from '../../http/access-guard.js';
import { AppError } from '../../http/app-error.js';
import { installEnvelopeErrors } from '../../http/envelope-errors.js';
import type { GenerationModule } from '../generation/generation-module.js';
import { workshopJob } from './workshop-job.js';
import { createWorkshopRepository } from './workshop-repository.js';
import { registerWorkshopRoutes } from './workshop-routes.js';

export const API_VERSION_HEADER = 'x-api-version';
export const SUPPORTED_API_VERSION = 'v1';

/** Registers the workshop's job kind; the runner must know it even when the group is mounted elsewhere. */
export function registerWorkshopJobs(generation: GenerationModule) {
  const repo = createWorkshopRepository(generation.db, generation.now);
  generation.runner.register(workshopJob(generation, repo));
  return repo;
}

export async function registerThirdGroup(
  app: FastifyInstance,
  o: { prefix: string; authenticator: Authenticator; generation: GenerationModule },
): Promise<void> {
  const repo = registerWorkshopJobs(o.generation);
  await app.register(
    async (group) => {
      installEnvelopeErrors(group);
      group.addHook('onRequest', async (request) => {
        const header = request.headers[API_VERSION_HEADER];
        const version = Array.isArray(header) ? header[0] : header;
        if (version !== undefined && version.trim().toLowerCase() !== SUPPORTED_API_VERSION) {
          throw new AppError(400, 'api_version_unsupported', { vars: { version: version.slice(0, 20) } });
        }
      });
      installAccessGuard(group, 'third', o.prefix, o.authenticator);
      await group.register(multipart, { limits: { fileSize: o.generation.uploadLimits.maxBytes } });
      registerWorkshopRoutes(group, o.generation, repo);
    },
    { prefix: o.prefix },
  );
}
