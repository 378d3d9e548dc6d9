// DELETE /upscale/jobs/{key}: asks the upscale service to stop the job it keeps under a request's
// Idempotency-Key (server/modules/upscale/upscale-routes.ts). Aborting the request alone leaves a
// keyed job running for the service's resend grace, on an engine other images are waiting for.
import type { QueueAuth } from './protocol';
import { joinUrl } from './xhr-sender';

/** Resolves with the service's status (404 once the job is gone); rejects only without a response. */
export async function cancelUpscaleJob(idempotencyKey: string, auth: QueueAuth): Promise<number> {
  const res = await fetch(joinUrl(auth.baseUrl, `/upscale/jobs/${encodeURIComponent(idempotencyKey)}`), {
    method: 'DELETE',
    headers: auth.token ? { Authorization: `Bearer ${auth.token}` } : {},
    cache: 'no-store',
  });
  return res.status;
}
