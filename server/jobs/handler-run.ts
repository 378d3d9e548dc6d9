// One run of a job's handler and the one-look-at-a-time loop that starts runs, as both queues use
// them (the in-process runner job-runner.ts and team mode's pgboss/pgboss-worker.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { JobContext, JobHandler } from './job-handler.js';
import type { JobRow } from './job-table.js';

/** How a run ended: `ok` when the handler returned before any stop; `reason` is the abort's. */
export interface RunEnd<Reason extends string> {
  ok: boolean;
  reason: Reason | undefined;
  error: unknown;
}

/**
 * Runs `run` until it returns, throws or `controller` is aborted (by the caller for its reasons,
 * or here with 'timeout' after `limitMs`). A handler that does not honour its signal is left
 * behind: the job is settled regardless.
 */
export async function runUntilStopped<Reason extends string>(
  run: (signal: AbortSignal) => Promise<void>,
  controller: AbortController,
  limitMs: number,
): Promise<RunEnd<Reason | 'timeout'>> {
  const timeout = setTimeout(() => controller.abort('timeout'), limitMs);
  const aborted = new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve()));
  let error: unknown;
  let ok = false;
  try {
    await Promise.race([run(controller.signal), aborted]);
    ok = !controller.signal.aborted;
  } catch (e) {
    error = e;
  } finally {
    clearTimeout(timeout);
  }
  const reason = controller.signal.aborted ? (controller.signal.reason as Reason | 'timeout') : undefined;
  return { ok, reason, error };
}

/**
 * Runs `tick` one at a time: a wake-up while one runs asks for exactly one more after it, however
 * many came. Nothing runs while `canRun` says no; a tick that throws is reported to `onError`.
 */
export function serialWake(
  tick: () => Promise<void>,
  canRun: () => boolean,
  onError: (error: unknown) => void,
): () => void {
  let ticking = false;
  let tickAgain = false;
  const wake = (): void => {
    if (!canRun()) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    void tick()
      .catch(onError)
      .finally(() => {
        ticking = false;
        if (tickAgain) {
          tickAgain = false;
          wake();
        }
      });
  };
  return wake;
}

/**
 * After a retry of a job has been written: logged, the handler told (its row may say so), and a
 * wake-up set for when it is due (the poll would find it too; a timer makes a short wait exact).
 */
export async function announceRetry(
  o: { log: FastifyBaseLogger; handler: JobHandler; publish: JobContext['publish']; wake: () => void },
  job: { id: number | string; row: JobRow },
  retry: { failure: unknown; text: string; waitMs: number },
): Promise<void> {
  o.log.info({ jobId: job.id, kind: job.row.kind, waitMs: retry.waitMs, err: retry.text }, 'job will be retried');
  await o.handler.retrying?.(job.row, retry.failure, retry.waitMs, o.publish);
  setTimeout(() => o.wake(), retry.waitMs + 5).unref();
}
