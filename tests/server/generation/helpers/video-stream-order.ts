// The rule of the videos' event stream, checked on the events a test read: `complete` comes last,
// after every video of the call has had its final view (completed or failed), and nothing of a
// video follows its final view.

const isFinal = (status: unknown) => status === 'completed' || status === 'failed';

/** Which video an event is about, if any. */
const videoOf = (e: Record<string, unknown>): number | undefined =>
  e.type === 'video' ? (e.video as { id: number }).id : e.type === 'progress' ? (e.id as number) : undefined;

/** Checks the stream's rule and answers what broke it (an empty list when it held). */
export function orderProblems(events: Record<string, unknown>[], ids: number[]): string[] {
  const problems: string[] = [];
  const ended = new Set<number>();
  events.forEach((e, i) => {
    if (e.type === 'complete') {
      if (i !== events.length - 1) problems.push(`complete at ${i} is not the last event`);
      const missing = ids.filter((id) => !ended.has(id));
      if (missing.length > 0) problems.push(`complete before the final view of ${missing.join(', ')}`);
      return;
    }
    const id = videoOf(e);
    if (id === undefined) return;
    if (ended.has(id)) problems.push(`${JSON.stringify(e)} after the final view of ${id}`);
    if (e.type === 'video' && isFinal((e.video as { status: string }).status)) ended.add(id);
  });
  if (events.at(-1)?.type !== 'complete') problems.push('the stream did not end with complete');
  return problems;
}
