// Why a job's run was aborted, as both queues give it for the reason of the run's AbortSignal
// (job-runner.ts, pgboss/pgboss-worker.ts). A shutdown, a crash of the worker or a job another
// worker took over leaves the work to the next run, which resumes it: a provider's task started
// for it keeps running. A cancel or a time limit ends it, and the task is stopped too.
const LEFT_FOR_NEXT_RUN = new Set(['shutdown', 'crash', 'lost']);

/** True when the run was aborted for another run to go on with its work. */
export function leftForNextRun(signal: AbortSignal): boolean {
  return signal.aborted && LEFT_FOR_NEXT_RUN.has(String(signal.reason));
}
