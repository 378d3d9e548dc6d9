// The image API group (IMAGE_API_URL, default /image-api): the streaming calls of the video
// workflow. Errors before a stream starts answer in the main API's envelope; a started stream
// reports its own errors as events.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { installAccessGuard, type Authenticator } from '../../http/access-guard.js';
import { installEnvelopeErrors } from '../../http/envelope-errors.js';
import { registerAnalyzeRoute } from './analysis/analyze-route.js';
import type { GenerationContext } from './generation-context.js';
import { registerRegenerateRoutes } from './analysis/regenerate-route.js';
import { registerVideoPromptsRoute } from './video-prompts/video-prompts-route.js';

export async function registerImageGroup(
  app: FastifyInstance,
  o: { prefix: string; authenticator: Authenticator; generation: GenerationContext },
): Promise<void> {
  await app.register(
    async (group) => {
      installEnvelopeErrors(group);
      installAccessGuard(group, 'image', o.prefix, o.authenticator);
      // Files are counted and sized by the analyse form itself; the plugin's own cap is the same.
      await group.register(multipart, { limits: { fileSize: o.generation.uploadLimits.maxBytes } });
      registerAnalyzeRoute(group, o.generation);
      registerRegenerateRoutes(group, o.generation);
      registerVideoPromptsRoute(group, o.generation);
    },
    { prefix: o.prefix },
  );
}
