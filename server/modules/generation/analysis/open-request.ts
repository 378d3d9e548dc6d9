// Where the analyse and candidates jobs of a request begin: the request still to work on, or
// nothing when it is gone or already completed (a re-run after a restart), in which case its
// watchers are told it is complete, as the run that finished it told them.
import type { JobContext } from '../../../jobs/job-handler.js';
import { topics, type GenerationEvent } from '../job-topics.js';
import type { GenerationRepository } from '../store/generation-repository.js';
import type { GenerationRequestRow } from '../store/generation-tables.js';

export async function openRequest(
  repo: GenerationRepository,
  id: number,
  publish: JobContext['publish'],
): Promise<GenerationRequestRow | null> {
  const request = await repo.request(id);
  if (!request) return null;
  if (request.status === 'completed') {
    publish(topics.request(request.id), { type: 'completed' } satisfies GenerationEvent);
    return null;
  }
  return request;
}
