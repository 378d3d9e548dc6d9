// One run of a job, as the owner of the rows it writes: the process (or worker) that holds the job,
// the job and the attempt. A job taken over by another worker, or claimed again after its lease
// ran out, is another run, so the run it replaced no longer owns the rows.
import type { JobRow } from './job-table.js';

export function runOwner(job: Pick<JobRow, 'id' | 'lease_owner' | 'attempts'>): string {
  return `${job.lease_owner ?? 'unleased'}#${job.id}#${job.attempts}`;
}
